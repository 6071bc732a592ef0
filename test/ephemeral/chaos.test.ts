// Faults on purpose: the spec's grammar, the same faults for the same seed, the injected answers,
// the paths that never meet a fault, /readyz saying so, and PUT /v1/admin/chaos.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChaosSpecError, formatChaosSpec, parseChaosSpec } from "../../src/contract/chaos.js";
import { expectError, json } from "../helpers/assertions.js";
import { startTestServer } from "../helpers/test-server.js";
import { SEED_ADMIN, startThrowaway, type Throwaway } from "./helpers.js";

describe("the --chaos grammar", () => {
  it.each([
    ["latency=200ms@10%,status=503@2%,reset=1%", "latency=200ms@10%,status=503@2%,reset=1%"],
    ["latency=2s@50%", "latency=2000ms@50%"],
    [" status=429@100% , reset=0.5% ", "status=429@100%,reset=0.5%"],
    ["off", "off"],
    ["", "off"],
  ])("%j reads as %s", (spec, normalised) => {
    expect(formatChaosSpec(parseChaosSpec(spec))).toBe(normalised);
  });

  it.each([
    ["latency=200ms@10%,status=700@2%", '"status=700@2%": the status must be one of 429, 500, 503'],
    ["latency=200@10%", '"latency=200@10%": the latency must be a duration up to 60s, as 200ms or 2s'],
    ["reset=150%", '"reset=150%": the rate must be a percentage from 0% to 100%'],
    ["status=503", '"status=503": status needs a rate, as status=503@10%'],
    ["drop=1%", '"drop=1%": unknown kind "drop" (latency, status or reset)'],
    ["reset=1%,reset=2%", '"reset" is given twice: each kind of fault at most once'],
    ["latency", '"latency": each part is kind=value (latency=200ms@10%, status=503@2%, reset=1%)'],
  ])("%j is refused naming the part: %s", (spec, message) => {
    expect(() => parseChaosSpec(spec)).toThrow(new ChaosSpecError(message));
  });
});

/** What each of `count` GETs met: a status, or "reset" when the connection was cut. */
async function outcomes(server: Throwaway, count: number): Promise<Array<number | "reset">> {
  const seen: Array<number | "reset"> = [];
  for (let n = 0; n < count; n++) {
    seen.push(await fetch(`${server.baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${SEED_ADMIN}` } }).then((response) => response.status, () => "reset" as const));
  }
  return seen;
}

describe("serve --chaos --chaos-seed", () => {
  const faults = parseChaosSpec("status=503@30%,reset=15%");

  it("gives the same sequence of requests the same faults for the same seed, other faults for another", async () => {
    const runs: Array<Array<number | "reset">> = [];
    for (const seed of [42, 42, 7]) {
      const server = await startThrowaway({ chaos: { faults, seed } });
      runs.push(await outcomes(server, 40));
      await server.close();
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]).not.toEqual(runs[2]);
    expect(runs[0]).toContain(503);
    expect(runs[0]).toContain("reset");
    expect(runs[0]).toContain(200);
  });

  it("says so at start, with the seed", async () => {
    const server = await startThrowaway({ chaos: { faults, seed: 42 }, quiet: false });
    expect(server.stderr()).toContain("chaos on: status=503@30%,reset=15% (--chaos-seed 42)");
    await server.close();
  });
});

describe("injected answers", () => {
  let server: Throwaway;
  beforeAll(async () => {
    server = await startThrowaway({ chaos: { faults: parseChaosSpec("status=503@100%"), seed: 1 } });
  });
  afterAll(() => server.close());
  const setChaos = (body: unknown, key = SEED_ADMIN) => server.api("/admin/chaos", { method: "PUT", json: body, key });

  it("a status is the Error body with code injected_fault, and Retry-After on 429 and 503", async () => {
    for (const status of [503, 429, 500]) {
      await setChaos({ spec: `status=${status}@100%` });
      const response = await server.api("/pets");
      expect(await expectError(response, status, "injected_fault")).toContain("injected on purpose");
      expect(response.headers.get("retry-after")).toBe(status === 500 ? null : "1");
    }
  });

  it("never faults the probes, /metrics or /v1/admin/*; /readyz says chaos is on", async () => {
    await setChaos({ spec: "status=503@100%", seed: 3 });
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", chaos: "status=503@100% (seed 3)" });
    expect((await fetch(`${server.origin}/metrics`)).status).toBe(404);
    expect((await server.api("/admin/reset", { method: "POST" })).status).toBe(204);
  });

  it("a reset cuts the connection before any answer", async () => {
    await setChaos({ spec: "reset=100%" });
    await expect(fetch(`${server.baseUrl}/pets`, { headers: { authorization: `Bearer ${SEED_ADMIN}` } })).rejects.toThrow();
  });

  it("PUT /v1/admin/chaos answers the faults in force; off ends them", async () => {
    const response = await setChaos({ spec: "latency=1ms@50%", seed: 9 });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ spec: "latency=1ms@50%", seed: 9 });
    expect(await json(await setChaos({ spec: "off" }))).toEqual({ spec: "off", seed: 9 });
    expect((await server.api("/pets")).status).toBe(200);
    expect(await (await fetch(`${server.origin}/readyz`)).json()).toEqual({ status: "ready" });
  });

  it("refuses a bad spec with a 400 naming the part, and a non-admin key with 403", async () => {
    expect(await expectError(await setChaos({ spec: "latency=5ms@10%,status=418@5%" }), 400, "invalid_body")).toContain('"status=418@5%": the status must be one of 429, 500, 503');
    await expectError(await setChaos({ spec: "off", extra: 1 }), 400, "invalid_body");
    await expectError(await setChaos({ spec: "off" }, "ps_FreeKey000000000000000000000000000000000"), 403, "forbidden");
  });

  it("is 404 on a server over a db", async () => {
    const file = await startTestServer();
    try {
      await expectError(await file.api("/admin/chaos", { method: "PUT", json: { spec: "off" } }), 404, "not_found");
    } finally {
      await file.close();
    }
  });
});
