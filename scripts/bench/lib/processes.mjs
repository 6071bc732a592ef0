// Every process the bench starts, each in its own process group, so that all of them (and
// anything they spawn) are gone when the bench ends, however it ends.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

const started = new Set();

const hasTaskset = spawnSync("taskset", ["-c", "0", "true"]).status === 0;

/** Whether processes are pinned to cores (server on core 0, load generator on core 1). */
export const pinned = hasTaskset;

/** Moves this process (the load generator) to core 1, away from the servers on core 0. */
export function pinSelf() {
  if (hasTaskset) spawnSync("taskset", ["-a", "-cp", "1", String(process.pid)], { stdio: "ignore" });
}

/**
 * `[command, args]` to run `command args` on every core, for a process measured alone: one the
 * bench starts would otherwise inherit its pin to core 1, and queue its own helper threads
 * (libuv's threadpool, V8's) behind its main thread on that one core, as no server runs.
 */
export function onAllCores(command, args) {
  return hasTaskset ? ["taskset", ["-c", `0-${cpus().length - 1}`, command, ...args]] : [command, args];
}

/**
 * Starts `command args` pinned to core 0; resolves once `ready(output)` finds what it waits for
 * in stdout (its result is returned as `ready`), or once `probe()` succeeds.
 */
export async function startProcess(name, command, args, { cwd, env, ready, probe, timeoutMs = 60_000 }) {
  const argv = hasTaskset ? ["taskset", "-c", "0", command, ...args] : [command, ...args];
  const child = spawn(argv[0], argv.slice(1), {
    cwd,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  started.add(child);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  exited.then(() => started.delete(child));
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const deadline = Date.now() + timeoutMs;
  let found;
  while (found === undefined) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited before it was ready:\n${stderr}`);
    }
    if (Date.now() > deadline) throw new Error(`${name} was not ready after ${timeoutMs} ms:\n${stderr}`);
    found = ready ? ready(stdout) : (await probe()) ? true : undefined;
    if (found === undefined) await sleep(50);
  }
  return {
    pid: child.pid,
    ready: found,
    stderr: () => stderr,
    /** SIGTERM, then SIGKILL to the whole group after `graceMs`. */
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signalGroup(child, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
      signalGroup(child, "SIGKILL");
    },
  };
}

/** Kills every process group still running; safe to call from an exit handler. */
export function killAll() {
  for (const child of started) signalGroup(child, "SIGKILL");
  started.clear();
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
  } catch {
    return { rssMb: NaN, peakMb: NaN };
  }
}

const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/**
 * CPU time (user + system) a process has used so far, in ms (Linux /proc). Per request, it is
 * far steadier than req/s on a machine that others share.
 */
export function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
}

/**
 * How long a process's main thread has waited for a core while runnable, in ms (Linux
 * /proc/<pid>/schedstat): time a busy machine took from it, which its CPU time does not show.
 */
export function runQueueMsOf(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[1]) / 1e6;
  } catch {
    return NaN;
  }
}

/** A port that was free a moment ago (for servers that cannot listen on port 0 and report it). */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
