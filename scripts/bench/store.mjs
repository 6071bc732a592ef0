// Issue 14's rows: the Store group (beta). POST /v1/store/orders at 100k pets, and
// GET /v1/store/inventory at 100k against 1k: counts kept as pets change, so no slower with more pets.
import { load } from "./lib/load.mjs";
import { row } from "./lib/report.mjs";
import { median } from "./lib/rounds.mjs";
import { SECRETS } from "./lib/seed.mjs";

const headers = { authorization: `Bearer ${SECRETS.load}` };
const postHeaders = { ...headers, "content-type": "application/json" };

/** GET /v1/store/inventory for the plan's seconds. */
async function inventoryRun(ctx, server, size) {
  const url = `${server.origin}/v1/store/inventory`;
  const result = await load({ url, headers, seconds: ctx.plan.seconds, expect: 200, pid: server.pid });
  ctx.log(`petstore inventory at ${size}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms${result.problem ? ` (${result.problem})` : ""}`);
  return result;
}

/**
 * GET /v1/store/inventory on the 100k server and on a 1k one, in pairs (the plan's rounds), the
 * order turning every pair; the median of the rounds' ratios counts, and the median round of
 * each is reported. Two servers measured a minute apart, as this row was, read 0.59-1.33 over
 * two days on this VM, whose speed moves by a fifth from one second to the next.
 */
export async function inventoryPairs(ctx, big, small) {
  for (const server of [big, small]) {
    await load({ url: `${server.origin}/v1/store/inventory`, headers, seconds: ctx.plan.warmupSeconds, expect: 200 });
  }
  const runs = { "100k": [], "1k": [] };
  const ratios = [];
  for (let round = 0; round < ctx.plan.rounds; round++) {
    const order = round % 2 === 0 ? [["100k", big], ["1k", small]] : [["1k", small], ["100k", big]];
    const pair = {};
    for (const [size, server] of order) pair[size] = await inventoryRun(ctx, server, size);
    runs["100k"].push(pair["100k"]);
    runs["1k"].push(pair["1k"]);
    ratios.push(pair["100k"].rps / pair["1k"].rps);
  }
  const medianOf = (list) => [...list].sort((a, b) => a.rps - b.rps)[(list.length - 1) >> 1];
  const inventory100k = medianOf(runs["100k"]);
  const inventory1k = medianOf(runs["1k"]);
  ctx.runs["GET inventory at 100k"] = runs["100k"];
  ctx.runs["GET inventory at 1k"] = runs["1k"];
  return { inventory100k, inventory1k, inventoryRatio: median(ratios) };
}

/**
 * Orders for pets that are available, each once: the seeded ones (every third id up to 100k)
 * and then the ones the POST run created. Should the run outlast them, the 409s are reported.
 */
export async function ordersRun(ctx, server, createdAfter100k) {
  const available = function* () {
    for (let id = 3; id <= 100_000; id += 3) yield id;
    for (let id = 100_001; id <= 100_000 + createdAfter100k; id++) yield id;
  };
  const ids = available();
  const setupRequest = (request) => ({ ...request, body: JSON.stringify({ petId: ids.next().value ?? 1 }) });
  const result = await load({
    url: `${server.origin}/v1/store/orders`,
    method: "POST",
    headers: postHeaders,
    body: JSON.stringify({ petId: 3 }),
    setupRequest,
    seconds: ctx.plan.postSeconds,
    expect: 201,
    pid: server.pid,
  });
  ctx.log(`petstore POST /store/orders at 100k: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms${result.problem ? ` (${result.problem})` : ""}`);
  ctx.runs["petstore POST orders at 100k"] = result;
  return result;
}

/** The table rows: orders against POST /pets at 100k (both one journal line per batch), inventory 100k against 1k. */
export function storeRows({ orders100k, post100k, inventory1k, inventory100k, inventoryRatio }) {
  return [
    row({ id: "14", scenario: "POST /v1/store/orders at 100k pets, 50 conn", figure: orders100k.rps, unit: "req/s",
      baseline: post100k.rps, baselineName: "POST /pets at 100k", problem: orders100k.problem }),
    row({ id: "14", scenario: "GET /v1/store/inventory at 100k pets, 50 conn (median of paired rounds)", figure: inventory100k.rps,
      unit: "req/s", baseline: inventory1k.rps, baselineName: "inventory at 1k", ratio: inventoryRatio, goal: [">=", 0.9],
      problem: inventory100k.problem ?? inventory1k.problem }),
  ];
}
