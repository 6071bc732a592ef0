import { AnswerError } from "../errors.js";

// The WHATWG event-stream parsing rules the client needs: fields up to a blank line make one
// event; comments (":") and unknown fields are ignored; `data:` lines are joined with "\n".

export interface SseMessage {
  event: string;
  /** The `id:` field of this event, when it had one. */
  id: string | undefined;
  data: string;
}

/** The most one event may take (its lines so far included): the server's events are under 1 kB. */
export const MAX_EVENT_CHARS = 1024 * 1024;

/**
 * Feed it text as it arrives; it returns the events completed so far. An event (or a line) past
 * MAX_EVENT_CHARS throws AnswerError and is dropped, so a server that never ends a line cannot
 * fill the client's memory.
 */
export class SseParser {
  #buffer = "";
  #size = 0;
  #event = "";
  #id: string | undefined;
  #data: string[] = [];

  push(text: string): SseMessage[] {
    this.#buffer += text;
    const done: SseMessage[] = [];
    for (let end = this.#buffer.search(/\r\n|\r|\n/); end >= 0; end = this.#buffer.search(/\r\n|\r|\n/)) {
      // A CR that ends the text so far may be the first half of a CRLF cut between chunks: wait.
      if (end === this.#buffer.length - 1 && this.#buffer.endsWith("\r")) break;
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + (this.#buffer.startsWith("\r\n", end) ? 2 : 1));
      const message = this.#line(line);
      if (message) done.push(message);
    }
    if (this.#buffer.length + this.#size > MAX_EVENT_CHARS) {
      this.#buffer = "";
      this.#dispatch();
      throw new AnswerError(`the event stream sent an event of more than ${MAX_EVENT_CHARS} characters; it was dropped`);
    }
    return done;
  }

  #line(line: string): SseMessage | undefined {
    if (line === "") return this.#dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") this.#event = value;
    else if (field === "data") {
      this.#data.push(value);
      this.#size += value.length + 1;
    }
    else if (field === "id" && !value.includes("\0")) this.#id = value;
    return undefined;
  }

  #dispatch(): SseMessage | undefined {
    const message = this.#data.length > 0 ? { event: this.#event || "message", id: this.#id, data: this.#data.join("\n") } : undefined;
    this.#event = "";
    this.#id = undefined;
    this.#data = [];
    this.#size = 0;
    return message;
  }
}
