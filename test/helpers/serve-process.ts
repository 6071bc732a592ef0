// Starts the built CLI's `serve` as a real subprocess on a port of its own (test-port.ts) with a temporary db.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unusedTestPort } from "./test-port.js";

export const BIN = fileURLToPath(new URL("../../bin/petstore.js", import.meta.url));
export const TEST_ADMIN_KEY = "ps_test_admin_key_0123456789abcdefghijkl";

export interface ServeProcess {
  baseUrl: string;
  origin: string;
  adminKey: string;
  dbPath: string;
  child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Everything it wrote to stdout so far (the listening lines). */
  stdout(): string;
  /** Sends a signal (SIGTERM by default) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServeProcessOptions {
  dbPath?: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  /** Defaults to TEST_ADMIN_KEY; pass null to leave PETSTORE_ADMIN_KEY unset. */
  adminKey?: string | null;
}

export async function tempDbPath(name = "petstore.json"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "petstore-test-"));
  return join(dir, name);
}

export async function startServeProcess(options: ServeProcessOptions = {}): Promise<ServeProcess> {
  const dbPath = options.dbPath ?? (await tempDbPath());
  const adminKey = options.adminKey === undefined ? TEST_ADMIN_KEY : options.adminKey;
  // Text lines, as on a terminal, unless a test asks for JSON: stderr is a pipe here.
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", PETSTORE_LOG_FORMAT: "text", ...options.env };
  if (adminKey === null) delete env.PETSTORE_ADMIN_KEY;
  else env.PETSTORE_ADMIN_KEY = adminKey;
  // A port of this worker's own (a later --port in args wins): --port 0 would leave the window of
  // listhen's port finder open, and this process cannot retry a start that lost it.
  const port = String(await unusedTestPort());
  const child = spawn(process.execPath, [BIN, "serve", "--port", port, "--db", dbPath, ...(options.args ?? [])], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /(https?:\/\/\S+\/v1)\b/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening:\n${stderr}`)));
  });
  return {
    baseUrl,
    origin: new URL(baseUrl).origin,
    adminKey: adminKey ?? "",
    dbPath,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs `petstore serve` expecting its start to fail; its exit code (null if it started after all) and output. */
export function serveToExit(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "serve", ...args], {
      env: { ...process.env, NO_COLOR: "1", PETSTORE_LOG_FORMAT: "text", PETSTORE_ADMIN_KEY: TEST_ADMIN_KEY, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      // It started after all: stop it at once, the caller sees a null code.
      if (/listening on/.test(stdout)) child.kill("SIGKILL");
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
