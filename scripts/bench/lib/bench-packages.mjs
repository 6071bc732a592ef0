// The bench's own packages (scripts/bench/package.json: the rivals petstore is compared with and
// the load generator), kept out of the project's install: `npm run bench` installs them from their
// lockfile when they are absent or not the pinned versions.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const BENCH_DIR = new URL("..", import.meta.url).pathname;

/** Installs the bench's packages (npm ci in scripts/bench) unless each pinned version is there. */
export function ensureBenchPackages(log = (line) => console.error(line)) {
  if (installed()) return;
  log("installing the bench's own packages (scripts/bench/package.json)");
  // Under `npm run`, the npm that runs us; else the one on PATH.
  const [command, args] = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ["npm", []];
  const result = spawnSync(command, [...args, "ci", "--no-audit", "--no-fund"], { cwd: BENCH_DIR, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) throw new Error(`npm ci in ${BENCH_DIR} failed (${result.error?.message ?? `exit ${result.status}`})`);
}

function installed() {
  const { dependencies } = JSON.parse(readFileSync(join(BENCH_DIR, "package.json"), "utf8"));
  return Object.entries(dependencies).every(([name, version]) => {
    try {
      return JSON.parse(readFileSync(join(BENCH_DIR, "node_modules", name, "package.json"), "utf8")).version === version;
    } catch {
      return false;
    }
  });
}
