// Peak RSS of the built client printing 100,000 pets as JSON into a pipe: `pets list --all --json`
// (streamed page by page) against `pets list --limit 100000 --json` (every page held, then printed),
// so the figure shows what streaming saves. Goal (issue 17): the streamed run under 150 MB.
// Run alone: `node scripts/bench/client-stream-rss.mjs`; the bench calls clientStreamRss().
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { memoryOf } from "./lib/processes.mjs";
import { row } from "./lib/report.mjs";
import { SECRETS, writePetstoreDb } from "./lib/seed.mjs";

const BIN = fileURLToPath(new URL("../../bin/petstore.js", import.meta.url));

/** Starts `serve` over a seeded 100k file, runs both client commands, and returns their peaks in MB. */
export async function clientStreamRss({ count = 100_000 } = {}) {
  const work = await mkdtemp(join(tmpdir(), "petstore-rss-"));
  const db = join(work, "petstore.json");
  await writePetstoreDb(db, count);
  const server = spawn(process.execPath, [BIN, "serve", "--port", "0", "--db", db, "--quiet"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const baseUrl = await new Promise((resolve) => {
      let out = "";
      server.stdout.setEncoding("utf8").on("data", (chunk) => {
        out += chunk;
        const match = /(http:\/\/\S+\/v1)\b/.exec(out);
        if (match) resolve(match[1]);
      });
    });
    const env = { ...process.env, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: SECRETS.admin, PETSTORE_CONFIG: join(work, "none.json") };
    const streamed = await peakOf(["pets", "list", "--all", "--json"], env);
    const held = await peakOf(["pets", "list", "--limit", String(count), "--json"], env);
    return { count, streamed, held };
  } finally {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
    await rm(work, { recursive: true, force: true });
  }
}

/** Scenario 8's rows: the streamed peak against the goal, and the held one for comparison. */
export function clientRssRows({ streamed, held }) {
  const problem = streamed.code !== 0 || held.code !== 0 ? "a client run failed" : undefined;
  return [
    row({ id: "8", scenario: "client peak RSS, pets list --all --json, 100k pets into a pipe", figure: streamed.peakMb, unit: "MB",
      goal: ["<", 150], absolute: true, problem }),
    row({ id: "8", scenario: "  the same held in memory (--limit 100000 --json)", figure: held.peakMb, unit: "MB" }),
  ];
}

/** Runs the client with stdout into a pipe it drains, sampling VmHWM until it exits. */
async function peakOf(args, env) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "pipe", "ignore"] });
  let bytes = 0;
  child.stdout.on("data", (chunk) => (bytes += chunk.length));
  let peakMb = 0;
  const timer = setInterval(() => (peakMb = Math.max(peakMb, memoryOf(child.pid).peakMb || 0)), 20);
  const code = await new Promise((resolve) => child.once("exit", resolve));
  clearInterval(timer);
  return { peakMb: Math.round(peakMb), bytes, code };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await clientStreamRss();
  console.log(JSON.stringify(result, null, 2));
}
