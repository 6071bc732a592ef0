// What `pets import` says while it runs: a bar redrawn in place on a terminal (done / total,
// rate, time left, and the waits for the quota), or one line per 10% when stderr is a pipe or a log.
import type { OutStream } from "./stream.js";

export interface ImportProgress {
  advance(done: number): void;
  waiting(ms: number, reason: string): void;
  done(): void;
}

export function createImportProgress(stream: OutStream, total: number, now: () => number): ImportProgress {
  const started = now();
  let lastDecile = 0;
  let lastDone = 0;
  let drawn = false;
  const rate = (done: number) => done / Math.max(0.001, (now() - started) / 1000);
  const draw = (done: number, note = "") => {
    const width = 24;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const perSecond = rate(done);
    const left = perSecond > 0 ? Math.ceil((total - done) / perSecond) : undefined;
    const eta = left === undefined ? "" : ` ${left}s left`;
    stream.write(`\r\x1b[2K[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} ${perSecond.toFixed(1)}/s${eta}${note}`);
    drawn = true;
  };
  return {
    advance(done) {
      lastDone = done;
      if (stream.isTTY) return draw(done);
      const decile = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (decile > lastDecile) {
        lastDecile = decile;
        stream.write(`Imported ${done}/${total} (${decile * 10}%)\n`);
      }
    },
    waiting(ms, reason) {
      // Said on both kinds of stream: a long silence in a CI log needs its reason.
      if (stream.isTTY) draw(lastDone, ` · waiting ${Math.ceil(ms / 1000)}s: ${reason}`);
      else stream.write(`Waiting ${Math.ceil(ms / 1000)}s: ${reason}\n`);
    },
    done() {
      if (drawn) stream.write("\r\x1b[2K");
    },
  };
}
