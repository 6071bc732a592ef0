// What a person sees of the HTTP traffic on stderr: with --verbose each request and answer with
// its remaining quota, its ETag (for --if-match) and whether it was a replay; and every wait longer than a second, terminal or not, since a silent
// wait looks like a hang.
import type { Attempt, HttpHooks } from "../http.js";
import { safeLine } from "./safe-text.js";
import type { OutStream } from "./stream.js";

export function httpReporter(stderr: Pick<OutStream, "write" | "isTTY">, options: { verbose: boolean }): HttpHooks {
  const log = (line: string) => {
    if (options.verbose) stderr.write(`${line}\n`);
  };
  return {
    onRequest: (request) => log(`> ${request.method} ${request.url}`),
    onAttempt(attempt, elapsedMs) {
      log(`< ${describe(attempt)} (${elapsedMs} ms)${quotaOf(attempt)}`);
      for (const line of detailsOf(attempt)) log(`  ${line}`);
    },
    onRetry({ delayMs, retry, of, after }) {
      if (!options.verbose && !stderr.isTTY && delayMs <= 1000) return;
      // On a terminal, first clear a progress line that may be showing.
      const clear = stderr.isTTY ? "\r\x1b[2K" : "";
      stderr.write(`${clear}Retrying in ${(delayMs / 1000).toFixed(1)} s after ${describe(after)} (retry ${retry} of ${of})\n`);
    },
  };
}

function describe(attempt: Attempt): string {
  return attempt.kind === "answer" ? `HTTP ${attempt.status}` : attempt.error.message;
}

/** ", quota 58/60 left, resets in 12 s" from the X-RateLimit-* headers, when the answer has them. */
function quotaOf(attempt: Attempt): string {
  if (attempt.kind !== "answer") return "";
  const { "x-ratelimit-limit": limit, "x-ratelimit-remaining": remaining, "x-ratelimit-reset": reset } = attempt.headers;
  if (remaining === undefined) return "";
  const resetIn = reset === undefined ? "" : `, resets at ${new Date(Number(reset) * 1000).toTimeString().slice(0, 8)}`;
  return `, quota ${remaining}/${limit ?? "?"} left${resetIn}`;
}

/**
 * The lines a person acts on: the ETag to pass to --if-match, and a replay (the server had
 * already done this request under its Idempotency-Key and sent the first answer again).
 */
function detailsOf(attempt: Attempt): string[] {
  if (attempt.kind !== "answer") return [];
  const lines: string[] = [];
  if (attempt.headers.etag !== undefined) lines.push(`ETag: ${safeLine(attempt.headers.etag, 200)}`);
  if (attempt.headers["idempotent-replayed"] === "true") {
    lines.push("Replayed: an earlier attempt of this request was already done; this is its answer again, nothing was done twice");
  }
  return lines;
}
