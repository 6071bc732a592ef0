// Preloaded into the built CLI (`node --import <this file>?streams=stdout,stderr bin/petstore.js`)
// by run-cli.ts, for the end-to-end tests that need a terminal's behaviour (table, colour,
// progress) from a subprocess whose streams are pipes. The CLI itself has no such switch: it asks
// each stream's isTTY, which this sets before the CLI starts.
const params = new URL(import.meta.url).searchParams;
const streams = params.get("streams")?.split(",") ?? [];
// A terminal's width, as tty.WriteStream reports it (a pipe has none).
const columns = params.has("columns") ? Number(params.get("columns")) : undefined;
for (const name of streams) {
  if (name !== "stdin" && name !== "stdout" && name !== "stderr") throw new Error(`force-tty: no stream ${name}`);
  Object.defineProperty(process[name], "isTTY", { value: true, configurable: true });
  if (columns !== undefined && name !== "stdin") Object.defineProperty(process[name], "columns", { value: columns, configurable: true });
}
// A pipe has no raw mode; the prompt library switches a terminal's stdin to it, so a forced one
// gets a stand-in that records the mode and does nothing else.
if (streams.includes("stdin") && typeof process.stdin.setRawMode !== "function") {
  let raw = false;
  Object.defineProperty(process.stdin, "isRaw", { get: () => raw, configurable: true });
  process.stdin.setRawMode = (mode) => {
    raw = mode;
    return process.stdin;
  };
}
