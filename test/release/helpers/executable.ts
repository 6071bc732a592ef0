// The single executable (release/petstore-linux-x64, `npm run package`) run as a user without
// Node runs it: a clean environment whose PATH holds no `node`, and a copy of the file alone in a
// directory of its own, so that it can lean on nothing beside it.
import { spawn, type ChildProcess } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unusedTestPort } from "../../helpers/test-port.js";

export const RELEASE = fileURLToPath(new URL("../../../release/", import.meta.url));
export const EXECUTABLE = join(RELEASE, "petstore-linux-x64");
/** What a PATH must not find for the run to prove anything. */
const NODE_TOOLS = new Set(["node", "nodejs", "npm", "npx", "corepack"]);

export interface Alone {
  /** The copy of the executable, alone in its directory. */
  executable: string;
  /** A clean environment (PATH without Node, a fresh HOME), plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Removes the copy and its directory. */
  remove(): Promise<void>;
}

/**
 * Copies the executable into an empty directory and makes a PATH of the system's own
 * directories minus Node and npm (links to every other program in /usr/bin and /bin).
 */
export async function executableAlone(): Promise<Alone> {
  const work = await mkdtemp(join(tmpdir(), "petstore-release-"));
  const executable = join(work, "app", "petstore");
  await mkdir(join(work, "app"));
  await copyFile(EXECUTABLE, executable);
  const bin = join(work, "bin");
  await mkdir(bin);
  for (const dir of ["/usr/bin", "/bin"]) {
    for (const name of await readdir(dir)) {
      if (!NODE_TOOLS.has(name)) await symlink(join(dir, name), join(bin, name)).catch(() => undefined);
    }
  }
  const home = join(work, "home");
  await mkdir(home);
  return {
    executable,
    env: (extra = {}) => ({ PATH: bin, HOME: home, PETSTORE_CONFIG: join(home, "config.json"), NO_COLOR: "1", TZ: "UTC", ...extra }),
    remove: () => rm(work, { recursive: true, force: true }),
  };
}

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(executable: string, args: string[], env: Record<string, string>, input = ""): Promise<Result> {
  const child = spawn(executable, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.end(input);
  return collect(child);
}

export function collect(child: ChildProcess): Promise<Result> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Served {
  baseUrl: string;
  origin: string;
  output(): string;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

/** `serve` from the executable, until it prints where it listens (http or https). */
export async function serve(executable: string, args: string[], env: Record<string, string>): Promise<Served> {
  // A port of this worker's own: --port 0 leaves listhen's port finder a window that --https widens.
  const child = spawn(executable, ["serve", "--port", String(await unusedTestPort()), ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const read = (chunk: string) => {
      output += chunk;
      const match = /listening on (https?:\/\/\S+\/v1)\b/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.setEncoding("utf8").on("data", read);
    child.stderr.setEncoding("utf8").on("data", read);
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening:\n${output}`)));
  });
  return {
    baseUrl,
    origin: new URL(baseUrl).origin,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
