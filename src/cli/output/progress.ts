import type { OutStream } from "./stream.js";

export interface Progress {
  update(text: string): void;
  done(): void;
}

/** A status line redrawn in place on a terminal; nothing at all when the stream is not a TTY. */
export function createProgress(stream: OutStream): Progress {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let shown = false;
  return {
    update(text) {
      stream.write(`\r\x1b[2K${text}`);
      shown = true;
    },
    done() {
      if (shown) stream.write("\r\x1b[2K");
      shown = false;
    },
  };
}
