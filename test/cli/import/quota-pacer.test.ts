// The pacer sends only what the quota says is left, waits for the reset once it is spent, and
// holds everything after a Retry-After; the clock is a test's, so no test sleeps.
import { describe, expect, it } from "vitest";
import { QuotaPacer, tightestWindow } from "../../../src/cli/internal/import/quota-pacer.js";

function clock() {
  let now = 1_000_000;
  const waits: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
    onWait: (ms: number) => waits.push(ms),
    waits,
  };
}

const answer = (remaining: number, seconds: number) => ({ ratelimit: `"minute";r=${remaining};t=${seconds}, "day";r=900;t=50000` });

describe("QuotaPacer", () => {
  it("sends one request alone first, then widens within what is left", async () => {
    const deps = clock();
    const pacer = new QuotaPacer(8, deps);
    await pacer.acquire();
    let second = false;
    void pacer.acquire().then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    pacer.settle(answer(29, 40), "ok");
    await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBe(true);
    expect(pacer.concurrency).toBe(2);
  });

  it("waits for the window's reset (plus a second) once the quota is spent, and says so once", async () => {
    const deps = clock();
    const pacer = new QuotaPacer(8, deps);
    await pacer.acquire();
    pacer.settle(answer(0, 40), "ok");
    await pacer.acquire();
    expect(deps.waits).toEqual([41_000]);
  });

  it("holds every request until Retry-After has passed after a 429", async () => {
    const deps = clock();
    const pacer = new QuotaPacer(8, deps);
    await pacer.acquire();
    pacer.settle(answer(10, 40), "refused", 5_000);
    await pacer.acquire();
    expect(deps.waits).toEqual([5_000]);
    expect(pacer.concurrency).toBe(1);
  });
});

describe("tightestWindow", () => {
  it("takes the window with the fewest left from RateLimit, else X-RateLimit-*", () => {
    expect(tightestWindow({ ratelimit: '"minute";r=5;t=30, "day";r=2;t=100' }, 0)).toEqual({ remaining: 2, resetAt: 100_000 });
    expect(tightestWindow({ "x-ratelimit-remaining": "7", "x-ratelimit-reset": "1700000000" }, 0)).toEqual({ remaining: 7, resetAt: 1_700_000_000_000 });
    expect(tightestWindow({}, 0)).toBeUndefined();
  });
});
