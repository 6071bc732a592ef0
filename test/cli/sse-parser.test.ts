// The client's event-stream parser (src/cli/internal/sse-parser.ts): events split anywhere
// across chunks, comments and retry lines ignored, CRLF and multi-line data.
import { describe, expect, it } from "vitest";
import { SseParser } from "../../src/cli/internal/sse-parser.js";

describe("SseParser", () => {
  it("completes an event only at its blank line, however the text is cut", () => {
    const text = 'retry: 2000\n\n: keep-alive\n\nevent: pet.created\nid: 7\ndata: {"id":7}\n\nevent: reset\ndata: {}\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = new SseParser();
      const messages = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(messages).toEqual([
        { event: "pet.created", id: "7", data: '{"id":7}' },
        { event: "reset", id: undefined, data: "{}" },
      ]);
    }
  });

  it("reads CRLF lines, joins data lines with newlines, and calls an unnamed event message", () => {
    expect(new SseParser().push("data: a\r\ndata: b\r\n\r\n")).toEqual([{ event: "message", id: undefined, data: "a\nb" }]);
  });
});
