// Private, throwaway PostgreSQL and Redis servers for the tests: on loopback, on free ports,
// with their data in a temporary directory that is removed when they stop.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { unusedTestPort } from "./test-port.js";

const run = promisify(execFile);

export interface Engine {
  url: string;
  stop(): Promise<void>;
}

/** An engine a test may take away and bring back on the same port and data (an outage, not a loss). */
export interface RestartableEngine extends Engine {
  /** PostgreSQL: a fast shutdown (clients disconnected, nothing lost); Redis: SIGTERM, and without persistence its data is gone. */
  down(): Promise<void>;
  /** Starts it again on the same port, and resolves once it accepts connections. */
  up(): Promise<void>;
}

/** How many Redis databases the test Redis has: one per test server (see test-backend.ts). */
export const REDIS_DATABASES = 10_000;

/**
 * initdb into a temporary directory and start it with trust authentication on 127.0.0.1 only.
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user of the Debian package.
 */
export async function startPostgres(): Promise<RestartableEngine> {
  const bin = await postgresBinDir();
  const dir = await mkdtemp(join(tmpdir(), "petstore-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chown(dir, ...(await postgresUser()));
  const as = (command: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", join(bin, command), ...args]) : run(join(bin, command), args);
  const data = join(dir, "data");
  await as("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  const port = await unusedTestPort();
  // fsync off: the cluster is thrown away after the run, and its durability is not under test.
  const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=300`;
  const start = () => as("pg_ctl", ["-D", data, "-o", settings, "-l", join(dir, "log"), "-w", "-t", "30", "start"]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    down: async () => void (await as("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"])),
    up: async () => void (await start()),
    stop: async () => {
      await as("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * redis-server on 127.0.0.1 without persistence, as a child process. `extraArgs` are more
 * settings (`--requirepass`, a TLS port); with `tlsPort` the plain port is off and `url` is the
 * rediss:// one on `localhost` (the name its test certificate carries).
 */
export async function startRedis(options: { extraArgs?: string[]; tlsPort?: number } = {}): Promise<RestartableEngine> {
  const dir = await mkdtemp(join(tmpdir(), "petstore-redis-"));
  const port = options.tlsPort === undefined ? await unusedTestPort() : 0;
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...(options.extraArgs ?? [])];
  const start = async () => {
    const started = spawn(findRedisServer(), [...args, "--dir", dir, "--databases", String(REDIS_DATABASES)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    await waitForOutput(started, /Ready to accept connections/);
    return started;
  };
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  let child = await start();
  return {
    url: options.tlsPort === undefined ? `redis://127.0.0.1:${port}` : `rediss://localhost:${options.tlsPort}`,
    down: halt,
    up: async () => void (child = await start()),
    stop: async () => {
      await halt();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresBinDir(): Promise<string> {
  const fromPgConfig = await run("pg_config", ["--bindir"]).then(
    ({ stdout }) => stdout.trim(),
    () => undefined,
  );
  const candidates = fromPgConfig ? [fromPgConfig] : [];
  // Debian's pg_config may belong to the client package only; the server lives here.
  const versions = await readdir("/usr/lib/postgresql").catch(() => [] as string[]);
  for (const version of versions.sort((a, b) => Number(b) - Number(a))) candidates.push(`/usr/lib/postgresql/${version}/bin`);
  for (const dir of candidates) {
    const found = await run(join(dir, "postgres"), ["--version"]).then(
      () => true,
      () => false,
    );
    if (found) return dir;
  }
  throw new Error("PostgreSQL server binaries not found (pg_config --bindir, /usr/lib/postgresql/*/bin): apt-get install postgresql");
}

async function postgresUser(): Promise<[number, number]> {
  const { stdout } = await run("id", ["-u", "postgres"]).catch(() => {
    throw new Error("running as root, but there is no `postgres` user to run PostgreSQL as");
  });
  const { stdout: group } = await run("id", ["-g", "postgres"]);
  return [Number(stdout.trim()), Number(group.trim())];
}

function findRedisServer(): string {
  return process.env.REDIS_SERVER ?? "redis-server";
}

function waitForOutput(child: ChildProcess, ready: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", (error) => reject(new Error(`redis-server cannot start: ${error.message} (apt-get install redis-server)`)));
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
}

