// What a person sees of the HTTP traffic on stderr: with --verbose each request and answer,
// and the retries, which are also shown whenever stderr is a terminal.
import type { Attempt, HttpHooks } from "../http.js";
import type { OutStream } from "./stream.js";

export function httpReporter(stderr: Pick<OutStream, "write" | "isTTY">, options: { verbose: boolean }): HttpHooks {
  const log = (line: string) => {
    if (options.verbose) stderr.write(`${line}\n`);
  };
  return {
    onRequest: (request) => log(`> ${request.method} ${request.url}`),
    onAttempt: (attempt, elapsedMs) => log(`< ${describe(attempt)} (${elapsedMs} ms)`),
    onRetry({ delayMs, retry, of, after }) {
      if (!options.verbose && !stderr.isTTY) return;
      // On a terminal, first clear a progress line that may be showing.
      const clear = stderr.isTTY ? "\r\x1b[2K" : "";
      stderr.write(`${clear}Retrying in ${(delayMs / 1000).toFixed(1)} s after ${describe(after)} (retry ${retry} of ${of})\n`);
    },
  };
}

function describe(attempt: Attempt): string {
  return attempt.kind === "answer" ? `HTTP ${attempt.status}` : attempt.error.message;
}
