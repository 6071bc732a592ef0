// The pacer sends only what the quota says is left, waits for the reset once it is spent (but
// not past --max-wait), and holds everything after a Retry-After; the clock is a test's, so no
// test sleeps.
import { describe, expect, it } from "vitest";
import { QuotaPacer } from "../../../src/cli/internal/import/quota-pacer.js";

function clock(maxWaitMs = 60_000) {
  let now = 1_000_000;
  const waits: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
    onWait: (ms: number) => waits.push(ms),
    maxWaitMs,
    waits,
  };
}

const answer = (remaining: number, seconds: number, day = { remaining: 900, seconds: 50_000 }) => ({
  "ratelimit-policy": '"minute";q=30;w=60, "day";q=1000;w=86400',
  ratelimit: `"minute";r=${remaining};t=${seconds}, "day";r=${day.remaining};t=${day.seconds}`,
});

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
    expect(await pacer.acquire()).toBe(true);
    expect(deps.waits).toEqual([41_000]);
  });

  it("waits a whole minute's reset within the default --max-wait of 60 s", async () => {
    const deps = clock(60_000);
    const pacer = new QuotaPacer(8, deps);
    await pacer.acquire();
    pacer.settle(answer(0, 60), "ok");
    expect(await pacer.acquire()).toBe(true);
    expect(deps.waits).toEqual([61_000]);
  });

  it("does not begin a wait past --max-wait: it stops, naming the spent window and its reset", async () => {
    const deps = clock(60_000);
    const pacer = new QuotaPacer(8, deps);
    await pacer.acquire();
    pacer.settle(answer(25, 40, { remaining: 0, seconds: 2_719 }), "ok");
    expect(await pacer.acquire()).toBe(false);
    expect(deps.waits).toEqual([]);
    expect(deps.now()).toBe(1_000_000);
    expect(pacer.quotaStop).toEqual({ window: { name: "day", limit: 1000, remaining: 0, resetAt: 1_000_000 + 2_719_000 }, resumeAt: 1_000_000 + 2_719_000 });
    expect(await pacer.acquire()).toBe(false);
  });

  it("sends the last requests left rather than wait when answers came out of order", async () => {
    const deps = clock();
    const pacer = new QuotaPacer(8, deps);
    await pacer.acquire();
    pacer.settle(answer(3, 40), "ok");
    await pacer.acquire();
    await pacer.acquire();
    // The later request is answered first (1 left; one still in flight, so 0 counted as free),
    // then the earlier one (2 left): nothing is in flight and one request is still left.
    pacer.settle(answer(1, 40), "ok");
    pacer.settle(answer(2, 40), "ok");
    expect(await pacer.acquire()).toBe(true);
    expect(deps.waits).toEqual([]);
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

  it("takes a failure without an answer for no news of the quota: no wait, no 'quota spent'", async () => {
    const deps = clock();
    const pacer = new QuotaPacer(8, deps);
    await pacer.acquire();
    pacer.settle(undefined, "failed");
    expect(await pacer.acquire()).toBe(true);
    expect(deps.waits).toEqual([]);
  });

  it("wakes every waiting acquire with false when stopped", async () => {
    const deps = clock();
    const pacer = new QuotaPacer(1, deps);
    await pacer.acquire();
    const waiting = [pacer.acquire(), pacer.acquire()];
    pacer.stop();
    expect(await Promise.all(waiting)).toEqual([false, false]);
  });
});
