// vitest globalSetup of the "release" project: builds the single executable (`npm run package`,
// about a minute) when it is missing or older than what it is made from, so these tests never
// try a stale one, and a clean checkout (CI) needs no step of its own.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EXECUTABLE } from "./helpers/executable.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** What the executable is built from. */
const INPUTS = ["src", "scripts/build", "scripts/build.mjs", "scripts/package.mjs", "package.json", "package-lock.json"];

export default async function setup(): Promise<void> {
  if (existsSync(EXECUTABLE) && (await stat(EXECUTABLE)).mtimeMs > (await newest(INPUTS.map((path) => join(ROOT, path))))) return;
  const result = spawnSync(process.execPath, [join(ROOT, "scripts/package.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run package failed (exit ${result.status})`);
}

async function newest(paths: string[]): Promise<number> {
  let latest = 0;
  for (const path of paths) {
    const info = await stat(path);
    latest = Math.max(latest, info.mtimeMs);
    if (info.isDirectory()) latest = Math.max(latest, await newest((await readdir(path)).map((name) => join(path, name))));
  }
  return latest;
}
