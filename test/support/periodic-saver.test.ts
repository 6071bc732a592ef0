import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PeriodicSaver } from "../../src/support/periodic-saver.js";

/** A saver over a save function that records its calls and fails while `failing` is set. */
function harness() {
  const warnings: string[] = [];
  const state = { saves: 0, failing: false, running: 0, overlapped: false };
  const saver = new PeriodicSaver({
    intervalMs: 1_000,
    what: "cannot save the counters",
    warn: (message) => warnings.push(message),
    save: async () => {
      state.running++;
      if (state.running > 1) state.overlapped = true;
      await Promise.resolve();
      state.running--;
      state.saves++;
      if (state.failing) throw new Error("ENOSPC: no space left on device");
    },
  });
  return { saver, state, warnings };
}

describe("PeriodicSaver", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("saves once per interval however many changes are scheduled", async () => {
    const { saver, state } = harness();
    for (let i = 0; i < 100; i++) saver.schedule();
    await vi.advanceTimersByTimeAsync(999);
    expect(state.saves).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.saves).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(state.saves).toBe(1);
  });

  it("flush() saves at once, cancels the due timed save and never overlaps two saves", async () => {
    const { saver, state } = harness();
    saver.schedule();
    await Promise.all([saver.flush(), saver.flush(), saver.flush()]);
    expect(state.saves).toBe(3);
    expect(state.overlapped).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(state.saves).toBe(3);
  });

  it("warns once per outage, and again after a save has succeeded", async () => {
    const { saver, state, warnings } = harness();
    state.failing = true;
    for (let i = 0; i < 3; i++) {
      saver.schedule();
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(state.saves).toBe(3);
    expect(warnings).toEqual(["cannot save the counters: ENOSPC: no space left on device"]);
    state.failing = false;
    saver.schedule();
    await vi.advanceTimersByTimeAsync(1_000);
    state.failing = true;
    saver.schedule();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(warnings).toHaveLength(2);
  });

  it("flush() rejects with the save's error instead of warning", async () => {
    const { saver, state, warnings } = harness();
    state.failing = true;
    await expect(saver.flush()).rejects.toThrow("ENOSPC");
    expect(warnings).toEqual([]);
  });

  it("does not keep the process alive while a save is due", () => {
    const { saver } = harness();
    const spy = vi.spyOn(globalThis, "setTimeout");
    try {
      saver.schedule();
      const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
      saver.cancel();
    } finally {
      // The fast lane shares a worker's globals across files: a spy left on setTimeout would hold every timer after it.
      spy.mockRestore();
    }
  });
});
