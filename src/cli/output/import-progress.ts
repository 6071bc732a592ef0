// What `pets import` says while it runs: a bar redrawn in place on a terminal (done / total,
// rate, time left, and the waits for the quota), or one line per 10% when stderr is a pipe or a log.
// The redrawn line always fits the terminal: one that wrapped could not be redrawn, and left its
// first part behind on the line above.
import type { OutStream } from "./stream.js";
import { cutToWidth, displayWidth } from "./text-width.js";

const BAR_WIDTH = 24;
const MIN_BAR_WIDTH = 10;

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
    const perSecond = rate(done);
    const left = perSecond > 0 ? Math.ceil((total - done) / perSecond) : undefined;
    const counts = `${done}/${total} ${perSecond.toFixed(1)}/s${left === undefined ? "" : ` ${left}s left`}`;
    // The last column stays free: a line that fills it wraps on some terminals.
    stream.write(`\r\x1b[2K${progressLine(total === 0 ? 1 : done / total, counts, note, (stream.columns ?? 80) - 1)}`);
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

/** The bar (narrower on a narrow terminal, none below MIN_BAR_WIDTH), the counts and the note, within `width` columns. */
function progressLine(fraction: number, counts: string, note: string, width: number): string {
  const barWidth = Math.min(BAR_WIDTH, width - displayWidth(counts) - displayWidth(note) - 3);
  if (barWidth < MIN_BAR_WIDTH) return cutToWidth(`${counts}${note}`, width);
  const filled = Math.round(Math.min(1, fraction) * barWidth);
  return `[${"#".repeat(filled)}${"-".repeat(barWidth - filled)}] ${counts}${note}`;
}
