// Redis's replies (RESP2) read from the bytes of a connection, as they arrive in chunks of any size.
// What the limiter reads is small (a script's array of integers, a string, OK), so a reply split
// across chunks is simply joined with the next one and read again from its start.

/** A reply: simple and bulk strings, integers, a nil (null bulk or array), or an array of replies. */
export type RespValue = string | number | null | RespValue[];

/** An error reply (`-ERR ...`, `-NOSCRIPT ...`): the command failed, the connection is fine. */
export class RedisReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RedisReplyError";
  }
}

/** Bytes that are not RESP: the connection cannot be trusted any more. */
export class RespProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RespProtocolError";
  }
}

const INCOMPLETE = Symbol("incomplete");
const CR = 0x0d;

/**
 * Reads replies in order; `onReply` gets each one whole. Throws RespProtocolError on bytes that
 * are not RESP2 (the caller then closes the connection).
 */
export class RespReader {
  readonly #onReply: (reply: RespValue | RedisReplyError) => void;
  /** The start of a reply whose end has not arrived. */
  #rest: Buffer | undefined;
  /** Where the value parsed last ended: one cursor instead of an object per value. */
  #end = 0;

  constructor(onReply: (reply: RespValue | RedisReplyError) => void) {
    this.#onReply = onReply;
  }

  feed(chunk: Buffer): void {
    const bytes = this.#rest === undefined ? chunk : Buffer.concat([this.#rest, chunk]);
    this.#rest = undefined;
    let offset = 0;
    while (offset < bytes.length) {
      const reply = this.#read(bytes, offset);
      if (reply === INCOMPLETE) {
        // A copy: a view would keep the whole (possibly 64 KiB) chunk alive for a few bytes.
        this.#rest = Buffer.from(bytes.subarray(offset));
        return;
      }
      offset = this.#end;
      this.#onReply(reply);
    }
  }

  /** Whether part of a reply is waiting for the rest. */
  get midReply(): boolean {
    return this.#rest !== undefined;
  }

  #read(bytes: Buffer, at: number): RespValue | RedisReplyError | typeof INCOMPLETE {
    const lineEnd = lineEndOf(bytes, at + 1);
    if (lineEnd < 0) return INCOMPLETE;
    const type = bytes[at];
    switch (type) {
      case 0x2b /* + */:
        this.#end = lineEnd + 2;
        return bytes.toString("utf8", at + 1, lineEnd);
      case 0x2d /* - */:
        this.#end = lineEnd + 2;
        return new RedisReplyError(bytes.toString("utf8", at + 1, lineEnd));
      case 0x3a /* : */:
        this.#end = lineEnd + 2;
        return integerAt(bytes, at + 1, lineEnd);
      case 0x24 /* $ */:
        return this.#readBulk(bytes, integerAt(bytes, at + 1, lineEnd), lineEnd + 2);
      case 0x2a /* * */:
        return this.#readArray(bytes, integerAt(bytes, at + 1, lineEnd), lineEnd + 2);
      default:
        throw new RespProtocolError(`unexpected byte 0x${(type ?? 0).toString(16)} at the start of a Redis reply`);
    }
  }

  #readBulk(bytes: Buffer, length: number, start: number): string | null | typeof INCOMPLETE {
    if (length < 0) {
      this.#end = start;
      return null;
    }
    if (start + length + 2 > bytes.length) return INCOMPLETE;
    this.#end = start + length + 2;
    return bytes.toString("utf8", start, start + length);
  }

  #readArray(bytes: Buffer, count: number, start: number): RespValue[] | RedisReplyError | null | typeof INCOMPLETE {
    if (count < 0) {
      this.#end = start;
      return null;
    }
    const values = new Array<RespValue>(count);
    let error: RedisReplyError | undefined;
    let at = start;
    for (let i = 0; i < count; i++) {
      const value = this.#read(bytes, at);
      if (value === INCOMPLETE) return INCOMPLETE;
      // An error inside an array (a failed command of a transaction) fails the whole reply.
      if (value instanceof RedisReplyError) error ??= value;
      else values[i] = value;
      at = this.#end;
    }
    this.#end = at;
    return error ?? values;
  }
}

/** The index of the CR of the CRLF that ends the line starting at `from`, or -1 while it has not all arrived. */
function lineEndOf(bytes: Buffer, from: number): number {
  const cr = bytes.indexOf(CR, from);
  return cr < 0 || cr + 1 >= bytes.length ? -1 : cr;
}

function integerAt(bytes: Buffer, from: number, to: number): number {
  let negative = false;
  let at = from;
  if (bytes[at] === 0x2d) {
    negative = true;
    at++;
  }
  if (at === to) throw new RespProtocolError("an empty number in a Redis reply");
  let value = 0;
  for (; at < to; at++) {
    const digit = bytes[at]! - 0x30;
    if (digit < 0 || digit > 9) throw new RespProtocolError("a number in a Redis reply has a character that is not a digit");
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}
