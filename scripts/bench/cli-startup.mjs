// Scenario 5 alone: `petstore --help` and `petstore pets list --json` (1k pets, a local server)
// against `node -e ''`, interleaved, medians. `npm run build && node scripts/bench/cli-startup.mjs
// [--runs 30] [--bin other/bin/petstore.js ...]`: each --bin is timed in the same run, to compare two builds.
// The single executable too, when release/ has one (npm run package).
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { withPetstoreServer } from "./lib/petstore-server.mjs";
import { SECRETS, writePetstoreDb } from "./lib/seed.mjs";
import { wallTimes } from "./lib/wall-time.mjs";

const root = new URL("../..", import.meta.url).pathname;
const { values } = parseArgs({ options: { runs: { type: "string", default: "30" }, bin: { type: "string", multiple: true, default: [] } } });
const bins = [join(root, "bin/petstore.js"), ...values.bin.map((path) => resolve(path))];
const work = await mkdtemp(join(tmpdir(), "petstore-cli-startup-"));
try {
  const db = join(work, "petstore-1k.json");
  await writePetstoreDb(db, 1_000);
  const results = await withPetstoreServer({ root, db }, ({ origin }) => {
    const env = { ...process.env, NO_COLOR: "1", PETSTORE_CONFIG: join(work, "no-cli-config.json"), PETSTORE_BASE_URL: `${origin}/v1`, PETSTORE_API_KEY: SECRETS.load };
    const commands = { "node -e ''": [process.execPath, ["-e", ""]] };
    bins.forEach((bin, index) => {
      const tag = bins.length > 1 ? ` [${index}]` : "";
      commands[`--help${tag}`] = [process.execPath, [bin, "--help"]];
      commands[`pets list --json${tag}`] = [process.execPath, [bin, "pets", "list", "--json"]];
    });
    const executable = join(root, "release/petstore-linux-x64");
    if (existsSync(executable)) {
      commands["executable --help"] = [executable, ["--help"]];
      commands["executable pets list --json"] = [executable, ["pets", "list", "--json"]];
    }
    return wallTimes(commands, { runs: Number(values.runs), env });
  });
  const baseline = results["node -e ''"];
  bins.forEach((bin, index) => index > 0 && console.log(`[${index}] ${bin}`));
  console.log(`${"".padEnd(30)} median wall       mean CPU`);
  for (const [name, { median, cpuMean }] of Object.entries(results)) {
    const wall = `${median.toFixed(1).padStart(7)} ms ${(median / baseline.median).toFixed(2)}x`;
    console.log(`${name.padEnd(30)} ${wall}  ${cpuMean.toFixed(1).padStart(6)} ms ${(cpuMean / baseline.cpuMean).toFixed(2)}x`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
