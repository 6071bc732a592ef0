// Runs the built CLI (bin/petstore.js over dist/) as a real subprocess, isolated from the
// developer's own config and environment.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BIN } from "../../helpers/serve-process.js";

const DIST = fileURLToPath(new URL("../../../dist/cli.cjs", import.meta.url));
const TTY_PRELOAD = new URL("./force-tty.mjs", import.meta.url);

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Added to a clean environment (PATH, HOME and PETSTORE_CONFIG in a fresh temp folder). */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  /**
   * The streams that behave as terminals, set by a preload (see force-tty.mjs): true for stdout
   * and stderr, "terminal" for stdin too (a person could be asked; the test must not let it ask).
   */
  tty?: boolean | "stdout" | "stderr" | "terminal";
  /** The forced terminal's width, as a terminal of that many columns reports it. */
  columns?: number;
}

/** A fresh folder to act as HOME, so no test reads the developer's ~/.config. */
export async function tempHome(): Promise<string> {
  return mkdtemp(join(tmpdir(), "petstore-cli-home-"));
}

export async function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  if (!existsSync(DIST)) throw new Error("dist/cli.cjs is missing: run `npm run build` before the CLI tests");
  const home = await tempHome();
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    PETSTORE_CONFIG: join(home, "config.json"),
    ...options.env,
  };
  const child = spawn(process.execPath, [...ttyPreload(options.tty, options.columns), BIN, ...args], { env: definedOnly(env), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? "");
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode) => resolve(exitCode));
  });
  return { code, stdout, stderr };
}

function ttyPreload(tty: RunOptions["tty"], columns: number | undefined): string[] {
  if (!tty) return [];
  const streams = tty === true ? "stdout,stderr" : tty === "terminal" ? "stdin,stdout,stderr" : tty;
  return ["--import", `${TTY_PRELOAD.href}?streams=${streams}${columns === undefined ? "" : `&columns=${columns}`}`];
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
