// The file engine's event backlog: kept as text, then as deflated blocks, trimmed by both rules, replayed exactly.
import { describe, expect, it } from "vitest";
import type { StoreEvent } from "../../src/contract/events.js";
import { EVENTS_PER_BLOCK, MemoryEventLog } from "../../src/store/events/memory-event-log.js";

const event = (id: number, at: number): StoreEvent => ({ type: "pet.updated", id, at: new Date(at).toISOString(), data: { id: id % 7, name: `Pet ${id}` } });

describe("MemoryEventLog", () => {
  it("replays exactly the events after an id, across the compactions of a long run, and resets below the backlog", async () => {
    let now = Date.UTC(2030, 0, 1);
    const log = new MemoryEventLog(41, () => now, { events: 1_000, ms: 60_000 });
    for (let id = 42; id < 42 + 20_000; id++) {
      log.publish([event(id, now)]);
      now += 10;
    }
    const last = 42 + 20_000 - 1;
    expect(log.last).toBe(last);
    // 60 s at one event per 10 ms: the last 6,000 are kept (more than 1,000, all younger than a minute).
    const kept = await log.since(last - 6_000);
    expect(kept.reset).toBe(false);
    expect(kept.events.map((e) => e.id)).toEqual(Array.from({ length: 6_000 }, (_, i) => last - 5_999 + i));
    expect(kept.events.at(-1)).toEqual(event(last, now - 10));
    expect(await log.since(last - 6_002)).toEqual({ reset: true, events: [] });
    expect(await log.since(last)).toEqual({ reset: false, events: [] });
    // An id this log has not reached is not its history: reset, never a wait for the ids to pass it.
    expect(await log.since(last + 1)).toEqual({ reset: true, events: [] });
  });

  it("keeps at least the count when the events are old, and starts again where ids do not follow on", async () => {
    let now = Date.UTC(2030, 0, 1);
    const log = new MemoryEventLog(0, () => now, { events: 3, ms: 1 });
    for (let id = 1; id <= 10; id++) log.publish([event(id, now)]);
    now += 1_000;
    log.publish([event(11, now)]);
    // All but the newest three were older than the time rule: 9, 10 and 11 stay.
    expect(await log.since(7)).toEqual({ reset: true, events: [] });
    expect((await log.since(8)).events.map((e) => e.id)).toEqual([9, 10, 11]);
    log.publish([event(20, now)]);
    expect(await log.since(11)).toEqual({ reset: true, events: [] });
    expect((await log.since(19)).events.map((e) => e.id)).toEqual([20]);
  });

  it("replays from any id across block boundaries, inside a partly trimmed oldest block, and the open one", async () => {
    let now = Date.UTC(2030, 0, 1);
    const keep = EVENTS_PER_BLOCK + 100;
    const log = new MemoryEventLog(0, () => now, { events: keep, ms: 1 });
    const total = 3 * EVENTS_PER_BLOCK + 37;
    for (let id = 1; id <= total; id++) {
      log.publish([event(id, now)]);
      now += 5;
    }
    const firstKept = total - keep + 1;
    // The oldest block kept starts before firstKept: its older events are trimmed, not replayed.
    expect(firstKept % EVENTS_PER_BLOCK).not.toBe(1);
    expect(await log.since(firstKept - 2)).toEqual({ reset: true, events: [] });
    for (const after of [firstKept - 1, firstKept, 2 * EVENTS_PER_BLOCK - 1, 2 * EVENTS_PER_BLOCK, 3 * EVENTS_PER_BLOCK, total - 1]) {
      const replay = await log.since(after);
      expect(replay.reset).toBe(false);
      expect(replay.events.map((e) => e.id)).toEqual(Array.from({ length: total - after }, (_, i) => after + 1 + i));
      expect(replay.events[0]).toEqual(event(after + 1, Date.UTC(2030, 0, 1) + after * 5));
    }
  });

  it("keeps text with line breaks and non-ASCII exactly through a block", async () => {
    const log = new MemoryEventLog(0, Date.now);
    const odd = (id: number): StoreEvent => ({ type: "pet.created", id, at: new Date(0).toISOString(), data: { id, name: `a\nb\u2028é🐾${id}` } });
    for (let id = 1; id <= EVENTS_PER_BLOCK + 1; id++) log.publish([odd(id)]);
    const replay = await log.since(0);
    expect(replay.events).toEqual(Array.from({ length: EVENTS_PER_BLOCK + 1 }, (_, i) => odd(i + 1)));
  });
});
