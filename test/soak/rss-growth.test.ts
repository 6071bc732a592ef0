// The soak's RSS verdict (scripts/soak/rss-growth.mjs) over series shaped like a real run's:
// V8's new space 16 → 32 MiB, shrunk to 4 MiB by its memory reducer at 105 s and doubling back to
// 32 MiB by 250 s, old space filling with promoted garbage until each full GC (40 s apart). Data
// that really grows must fail the check however the samples fall in that cycle.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { rssGrowth, type MemorySample } from "../../scripts/soak/rss-growth.mjs";

/** The samples of a real 10-minute soak (`npm run soak -- --out`), with where its backlog was full. */
const recorded = JSON.parse(readFileSync(new URL("../fixtures/soak-memory-samples.json", import.meta.url), "utf8")) as {
  readyMs: number;
  durationMs: number;
  samples: MemorySample[];
};

const MIB = 1024;
const RUN_MS = 600_000;
const READY_MS = 125_000;

function newSpaceMib(at: number): number {
  if (at < 30_000) return 16;
  if (at < 105_000) return 32;
  if (at < 125_000) return 4;
  if (at < 170_000) return 8;
  if (at < 250_000) return 16;
  return 32;
}

/** One sample every 5 s, paired with new space every 10 s, as run.mjs takes them; `leakMibPerMin` of data that never goes. */
function series({ leakMibPerMin = 0, youngAt = newSpaceMib } = {}): MemorySample[] {
  const samples: MemorySample[] = [];
  for (let at = 5_000; at <= RUN_MS; at += 5_000) {
    const garbage = ((at % 40_000) / 40_000) * 8;
    const leak = (leakMibPerMin * at) / 60_000;
    const young = youngAt(at);
    const rssKb = (60 + young + garbage + leak) * MIB;
    samples.push(at % 10_000 === 0 ? { at, rssKb, newSpaceKb: young * MIB } : { at, rssKb });
  }
  return samples;
}

describe("RSS growth after warm-up", () => {
  it("is flat when only V8's new space and the garbage between full GCs move", () => {
    const samples = series();
    const memory = rssGrowth(samples, { readyMs: READY_MS, durationMs: RUN_MS });
    expect(memory.comparable).toBe(true);
    expect(memory.youngKb).toBe(32 * MIB);
    // The warm-up ends 30 s after new space is back at 32 MiB (250 s), not when the backlog is full.
    expect(memory.warmupMs).toBe(270_000);
    expect(Math.abs(memory.growth)).toBeLessThan(0.03);
    // What the same series read from the backlog's warm-up on, new space regrowing: +25% or more.
    const atReady = samples.filter((sample) => sample.at >= READY_MS);
    const naive = atReady.at(-1)!.rssKb / atReady[0]!.rssKb - 1;
    expect(naive).toBeGreaterThan(0.25);
  });

  it("fails a run whose memory really grows, wherever the samples fall in V8's cycle", () => {
    for (const leakMibPerMin of [2.5, 4, 8, 16]) {
      const memory = rssGrowth(series({ leakMibPerMin }), { readyMs: READY_MS, durationMs: RUN_MS });
      expect(memory.comparable).toBe(true);
      expect(memory.growth).toBeGreaterThan(0.1);
    }
  });

  it("compares nothing it cannot match: new space shrunk again at the end makes the run not comparable", () => {
    const shrunkAtEnd = (at: number) => (at >= 500_000 ? 8 : newSpaceMib(at));
    const memory = rssGrowth(series({ youngAt: shrunkAtEnd }), { readyMs: READY_MS, durationMs: RUN_MS });
    expect(memory.comparable).toBe(false);
    expect(memory.end.samples).toBe(0);
    expect(memory.why).toMatch(/run longer/);
  });

  it("ends the warm-up at half the run when new space never settles", () => {
    const neverSettles = (at: number) => ((at / 10_000) % 2 === 0 ? 32 : 16);
    const memory = rssGrowth(series({ youngAt: neverSettles }), { readyMs: READY_MS, durationMs: RUN_MS });
    expect(memory.warmupMs).toBe(RUN_MS / 2);
  });

  it("over a recorded run: passes as it ran, fails with 2 MiB a minute more", () => {
    const { readyMs, durationMs, samples } = recorded;
    const asRun = rssGrowth(samples, { readyMs, durationMs });
    expect(asRun.comparable).toBe(true);
    expect(asRun.growth).toBeGreaterThan(0);
    expect(asRun.growth).toBeLessThan(0.1);
    const leaking = samples.map((sample) => ({ ...sample, rssKb: sample.rssKb + (2 * MIB * sample.at) / 60_000 }));
    expect(rssGrowth(leaking, { readyMs, durationMs }).growth).toBeGreaterThan(0.1);
  });
});
