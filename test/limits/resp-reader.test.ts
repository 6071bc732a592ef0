// Redis's replies as the limiter's connection reads them: every kind it can get, in chunks cut
// anywhere, and bytes that are not RESP refused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RedisReplyError, RespProtocolError, RespReader, type RespValue } from "../../src/limits/resp/resp-reader.js";

function readAll(chunks: Buffer[]): Array<RespValue | RedisReplyError> {
  const replies: Array<RespValue | RedisReplyError> = [];
  const reader = new RespReader((reply) => replies.push(reply));
  for (const chunk of chunks) reader.feed(chunk);
  expect(reader.midReply).toBe(false);
  return replies;
}

const CASES: Array<{ name: string; wire: string; reply: RespValue | RedisReplyError }> = [
  { name: "a simple string", wire: "+OK\r\n", reply: "OK" },
  { name: "an error", wire: "-NOSCRIPT No matching script. Please use EVAL.\r\n", reply: new RedisReplyError("NOSCRIPT No matching script. Please use EVAL.") },
  { name: "an integer", wire: ":1764100000000\r\n", reply: 1764100000000 },
  { name: "a negative integer", wire: ":-2\r\n", reply: -2 },
  { name: "a bulk string with CRLF inside", wire: "$7\r\na\r\nb\u00e9c\r\n", reply: "a\r\nbéc" },
  { name: "an empty bulk string", wire: "$0\r\n\r\n", reply: "" },
  { name: "a nil bulk string", wire: "$-1\r\n", reply: null },
  { name: "a nil array", wire: "*-1\r\n", reply: null },
  { name: "an empty array", wire: "*0\r\n", reply: [] },
  {
    name: "the rate-limit script's reply",
    wire: "*9\r\n:0\r\n:29401666\r\n:1\r\n:0\r\n:20416\r\n:1\r\n:0\r\n:0\r\n$36\r\n0b7e6c5e-2f1c-4a63-9a55-2b8f6d0c9e11\r\n",
    reply: [0, 29401666, 1, 0, 20416, 1, 0, 0, "0b7e6c5e-2f1c-4a63-9a55-2b8f6d0c9e11"],
  },
  { name: "nested arrays with nils", wire: "*3\r\n*2\r\n:1\r\n$-1\r\n*0\r\n+x\r\n", reply: [[1, null], [], "x"] },
  { name: "an error inside an array (a failed transaction)", wire: "*2\r\n:1\r\n-ERR wrong\r\n", reply: new RedisReplyError("ERR wrong") },
];

describe("RespReader", () => {
  it.each(CASES)("reads $name", ({ wire, reply }) => {
    expect(readAll([Buffer.from(wire)])).toEqual([reply]);
  });

  it("reads every reply whole and in order, wherever the chunks are cut", () => {
    const wire = Buffer.from(CASES.map((each) => each.wire).join(""));
    const expected = CASES.map((each) => each.reply);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: wire.length - 1 }), { maxLength: 40 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), wire.length];
        const chunks = points.slice(1).map((end, i) => wire.subarray(points[i], end));
        expect(readAll(chunks)).toEqual(expected);
      }),
    );
  });

  it("reads a reply that arrives a byte at a time", () => {
    const wire = Buffer.from("*2\r\n$5\r\nhello\r\n:42\r\n");
    expect(readAll([...wire].map((byte) => Buffer.from([byte])))).toEqual([["hello", 42]]);
  });

  it("keeps no more than the unfinished reply between chunks", () => {
    const replies: RespValue[] = [];
    const reader = new RespReader((reply) => replies.push(reply as RespValue));
    reader.feed(Buffer.from(":1\r\n:2\r\n$10\r\nabc"));
    expect(replies).toEqual([1, 2]);
    expect(reader.midReply).toBe(true);
    reader.feed(Buffer.from("defghij\r\n"));
    expect(replies).toEqual([1, 2, "abcdefghij"]);
    expect(reader.midReply).toBe(false);
  });

  it.each([
    ["an unknown type byte", "!oops\r\n"],
    ["a number with a letter", ":12a\r\n"],
    ["an empty number", ":\r\n"],
  ])("refuses %s", (_name, wire) => {
    const reader = new RespReader(() => undefined);
    expect(() => reader.feed(Buffer.from(wire))).toThrow(RespProtocolError);
  });
});
