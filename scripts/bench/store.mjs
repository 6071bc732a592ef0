// Issue 14's rows: the Store group (beta). POST /v1/store/orders at 100k pets, and
// GET /v1/store/inventory at 100k against 1k: counts kept as pets change, so no slower with more pets.
import { load } from "./lib/load.mjs";
import { row } from "./lib/report.mjs";
import { median, medianRun, takeTurns } from "./lib/rounds.mjs";
import { SECRETS } from "./lib/seed.mjs";

const headers = { authorization: `Bearer ${SECRETS.load}` };
const postHeaders = { ...headers, "content-type": "application/json" };

/**
 * GET /v1/store/inventory on the 100k server and on a 1k one, taking turns (the plan's rounds),
 * the order reversed every other round; the median of the rounds' ratios counts, and the median
 * run of each is reported. Two servers measured a minute apart, as this row was, read 0.59-1.33
 * over two days on this VM, whose speed moves by a fifth from one second to the next.
 */
export async function inventoryPairs(ctx, big, small) {
  const target = (server) => ({ url: `${server.origin}/v1/store/inventory`, headers, expect: 200, pid: server.pid });
  const rounds = await takeTurns(ctx, { "inventory at 100k": target(big), "inventory at 1k": target(small) }, {
    rounds: ctx.plan.rounds,
    turn: true,
    runsKey: (name) => `GET ${name}`,
  });
  const of = (name) => rounds.map((round) => round[name]);
  return {
    inventory100k: medianRun(of("inventory at 100k")),
    inventory1k: medianRun(of("inventory at 1k")),
    inventoryRatio: median(rounds.map((round) => round["inventory at 100k"].rps / round["inventory at 1k"].rps)),
    inventoryProblem: [...of("inventory at 100k"), ...of("inventory at 1k")].find((run) => run.problem)?.problem,
  };
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
export function storeRows({ orders100k, post100k, inventory1k, inventory100k, inventoryRatio, inventoryProblem }) {
  return [
    row({ id: "14", scenario: "POST /v1/store/orders at 100k pets, 50 conn", figure: orders100k.rps, unit: "req/s",
      baseline: post100k.rps, baselineName: "POST /pets at 100k", problem: orders100k.problem }),
    row({ id: "14", scenario: "GET /v1/store/inventory at 100k pets, 50 conn (median of paired rounds)", figure: inventory100k.rps,
      unit: "req/s", baseline: inventory1k.rps, baselineName: "inventory at 1k", ratio: inventoryRatio, goal: [">=", 0.9],
      problem: inventoryProblem }),
  ];
}
