// Preloaded into the built CLI (`node --import <this file>?streams=stdout,stderr bin/petstore.js`)
// by run-cli.ts, for the end-to-end tests that need a terminal's behaviour (table, colour,
// progress) from a subprocess whose streams are pipes. The CLI itself has no such switch: it asks
// each stream's isTTY, or (to spare node:net on a pipe, src/cli/internal/stdio.ts) fs.fstatSync and
// tty.isatty about its descriptor, which this answers as a terminal's before the CLI starts.
import fs from "node:fs";
import tty from "node:tty";

const params = new URL(import.meta.url).searchParams;
const streams = params.get("streams")?.split(",") ?? [];
// A terminal's width, as tty.WriteStream reports it (a pipe has none).
const columns = params.has("columns") ? Number(params.get("columns")) : undefined;
for (const name of streams) {
  if (name !== "stdin" && name !== "stdout" && name !== "stderr") throw new Error(`force-tty: no stream ${name}`);
  Object.defineProperty(process[name], "isTTY", { value: true, configurable: true });
  if (columns !== undefined && name !== "stdin") Object.defineProperty(process[name], "columns", { value: columns, configurable: true });
}
const forcedFds = new Set(streams.map((name) => ["stdin", "stdout", "stderr"].indexOf(name)));
const { fstatSync } = fs;
const { isatty } = tty;
fs.fstatSync = function forcedFstat(fd, options) {
  const stats = fstatSync(fd, options);
  if (!forcedFds.has(fd)) return stats;
  // A character device that is not /dev/null: what a terminal's descriptor looks like.
  return Object.assign(Object.create(Object.getPrototypeOf(stats)), stats, { rdev: -1, isCharacterDevice: () => true, isFIFO: () => false, isSocket: () => false });
};
tty.isatty = (fd) => forcedFds.has(fd) || isatty(fd);
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
