// The server under soak: the built `petstore serve` as a child process on a temporary db, its
// JSON log read line by line, and samples of its memory, descriptors and event-loop delay.
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { freePort } from "../bench/lib/processes.mjs";

export const ADMIN_KEY = "ps_soak_admin_key_0123456789abcdefghijklmn";

/** Starts `node [nodeArgs] bin/petstore.js serve` and resolves once it listens. */
export async function startServer({ bin, db, extraArgs = [], nodeArgs = [] }) {
  const metricsPort = await freePort();
  const args = [...nodeArgs, bin, "serve", "--port", "0", "--db", db, "--metrics-port", String(metricsPort), "--log-format", "json", ...extraArgs];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PETSTORE_ADMIN_KEY: ADMIN_KEY, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = { lines: 0, errors: [], warnings: [] };
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => countLine(log, line));
  }
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  const baseUrl = await new Promise((resolve, reject) => {
    let seen = "";
    // Only until it listens: after that the log is counted line by line, never kept whole.
    const onData = (chunk) => {
      seen += chunk;
      const match = /(http:\/\/\S+\/v1)\b/.exec(seen);
      if (!match) return;
      child.stdout.off("data", onData);
      child.stderr.off("data", onData);
      resolve(match[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${seen}`)));
  });
  return {
    pid: child.pid,
    baseUrl,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    log,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

// pino levels: 50 error, 60 fatal.
function countLine(log, line) {
  log.lines++;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    // Plain lines are serve's own notices (listening, metrics, stopping); a crash prints a stack.
    if (/\berror\b|^\s+at /i.test(line)) log.errors.push(line);
    return;
  }
  const level = typeof entry.level === "number" ? entry.level : { fatal: 60, error: 50, warn: 40 }[entry.level] ?? 30;
  if (level >= 50) log.errors.push(line);
  else if (level >= 40) log.warnings.push(line);
}

/** RSS (kB) and open descriptors of process `pid`, from /proc. */
export async function sampleProcess(pid) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  const fds = (await readdir(`/proc/${pid}/fd`)).length;
  return { rssKb, fds };
}

/**
 * prom-client's event-loop delay p99 (seconds) since the previous scrape, the V8 heap (in use, reserved) and
 * the memory outside it that V8 knows of (Buffers): it resets its
 * histogram at each collection, so each scrape covers the time since the last.
 */
export async function scrapeMetrics(metricsUrl) {
  const text = await (await fetch(metricsUrl)).text();
  const read = (name) => {
    const value = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, "m").exec(text)?.[1];
    return value === undefined ? undefined : Number(value);
  };
  return {
    p99: read("nodejs_eventloop_lag_p99_seconds"),
    heapUsed: read("nodejs_heap_size_used_bytes"),
    heapTotal: read("nodejs_heap_size_total_bytes"),
    external: read("nodejs_external_memory_bytes"),
    newSpace: read('nodejs_heap_space_size_total_bytes\\{space="new"\\}'),
    oldSpace: read('nodejs_heap_space_size_total_bytes\\{space="old"\\}'),
  };
}

