// The server CPU of a 304 (If-None-Match on GET /v1/pets) against a 401 (unknown key), measured in
// alternating rounds within one run, on one server with 1k pets: issue 13 wants a 304 to cost no
// more than a 401. Lighter than `npm run bench` (one server, one pair of runs per round).
//   node scripts/bench/conditional-cost.mjs [--seconds 3] [--rounds 3] [--cpu-prof <dir>] [--only 304|401]
// --cpu-prof writes the server's profile (node --cpu-prof) into <dir> when it stops; --only runs one case.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { load } from "./lib/load.mjs";
import { killAll, pinSelf, startProcess } from "./lib/processes.mjs";
import { SECRETS, UNLIMITED, writePetstoreDb } from "./lib/seed.mjs";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "3" }, rounds: { type: "string", default: "3" }, "cpu-prof": { type: "string" }, only: { type: "string" } } });
const LIST = "/v1/pets?limit=20";
const bearer = (secret) => ({ authorization: `Bearer ${secret}` });
const root = new URL("../..", import.meta.url).pathname;

// The server on core 0, autocannon here on core 1, as in `npm run bench`.
pinSelf();
const work = await mkdtemp(join(tmpdir(), "petstore-conditional-"));
await writePetstoreDb(join(work, "db.json"), 1_000);
await writeFile(join(work, "config.json"), JSON.stringify({ anonymous: UNLIMITED }));
const profile = values["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", values["cpu-prof"]] : [];
const server = await startProcess("petstore", process.execPath, [...profile, join(root, "bin/petstore.js"), "serve", "--port", "0", "--db", join(work, "db.json"), "--quiet", "--config", join(work, "config.json")], {
  cwd: root,
  env: { ...process.env, PETSTORE_ADMIN_KEY: SECRETS.admin },
  ready: (output) => /listening on (http:\/\/\S+)\/v1/.exec(output)?.[1],
});
try {
  const origin = server.ready;
  const etag = (await fetch(origin + LIST, { headers: bearer(SECRETS.load) })).headers.get("etag");
  const targets = {
    "304": { url: origin + LIST, headers: { ...bearer(SECRETS.load), "if-none-match": etag }, expect: 304, pid: server.pid },
    "401": { url: origin + LIST, headers: bearer(SECRETS.unknown), expect: 401, pid: server.pid },
  };
  if (values.only) for (const name of Object.keys(targets)) if (name !== values.only) delete targets[name];
  for (const target of Object.values(targets)) await load({ ...target, seconds: 1, connections: 20 });
  const best = {};
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const [name, target] of Object.entries(targets)) {
      const result = await load({ ...target, seconds: Number(values.seconds), connections: 20 });
      if (result.problem) throw new Error(`${name}: ${result.problem}`);
      console.log(`round ${round} ${name}: ${result.cpuUsPerRequest.toFixed(1)} µs CPU/request, ${Math.round(result.rps)} req/s`);
      best[name] = Math.min(best[name] ?? Infinity, result.cpuUsPerRequest);
    }
  }
  if (!values.only) console.log(`best: 304 ${best["304"].toFixed(1)} µs, 401 ${best["401"].toFixed(1)} µs, ratio 304/401 ${(best["304"] / best["401"]).toFixed(2)}`);
} finally {
  await server.stop?.();
  killAll();
}
