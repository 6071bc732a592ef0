// Issue 20's cost that grew with the clients: the file-mode limiter's save of its counters. The
// limiter's modules are bundled from src/ with esbuild and measured in a process of their own.
import { execFileSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";

/** The worst and p99 event-loop pause, in ms, over `seconds` of traffic at 100,000 subjects. */
export async function limiterPause({ root, work, seconds, log }) {
  const bundle = join(work, "limiter.mjs");
  await build({
    stdin: {
      contents: `export { openMemoryRateLimiter } from "./src/limits/memory-rate-limiter.ts";\nexport { filePersister } from "./src/limits/file-persister.ts";`,
      resolveDir: root,
      loader: "ts",
    },
    outfile: bundle,
    bundle: true,
    format: "esm",
    platform: "node",
    logLevel: "warning",
  });
  const dir = await mkdtemp(join(work, "limits-"));
  const script = new URL("./lib/limiter-pause.mjs", import.meta.url).pathname;
  const output = execFileSync(process.execPath, [script, bundle, dir, String(seconds)], { encoding: "utf8" });
  const result = JSON.parse(output.trim().split("\n").at(-1));
  log(`limiter saves at 100k subjects: worst pause ${result.maxMs} ms, p99 ${result.p99Ms} ms (state ${result.stateBytes} bytes)`);
  return result;
}
