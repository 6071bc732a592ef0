import { describe, expect, it } from "vitest";
import { isErrnoCode, messageOf } from "../../src/support/error-text.js";

function errno(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe("messageOf", () => {
  it.each([
    { name: "an Error", error: new Error("disk full"), text: "disk full" },
    { name: "an Error without a message: its code", error: errno("", "ECONNREFUSED"), text: "ECONNREFUSED" },
    { name: "an Error without a message or code: its name", error: new TypeError(""), text: "TypeError" },
    { name: "a string", error: "plain", text: "plain" },
    { name: "undefined", error: undefined, text: "undefined" },
    {
      // What Node throws when both IPv4 and IPv6 refuse: no message of its own.
      name: "an AggregateError: its first cause",
      error: new AggregateError([errno("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"), new Error("second")], ""),
      text: "connect ECONNREFUSED 127.0.0.1:1",
    },
    { name: "an empty AggregateError: its own message", error: new AggregateError([], "none"), text: "none" },
  ])("$name", ({ error, text }) => {
    expect(messageOf(error)).toBe(text);
  });
});

describe("isErrnoCode", () => {
  it("is true only for an Error with that code", () => {
    expect(isErrnoCode(errno("no such file", "ENOENT"), "ENOENT")).toBe(true);
    expect(isErrnoCode(errno("no such file", "ENOENT"), "EACCES")).toBe(false);
    expect(isErrnoCode(new Error("ENOENT"), "ENOENT")).toBe(false);
    expect(isErrnoCode({ code: "ENOENT" }, "ENOENT")).toBe(false);
  });
});
