// One subscriber's stream (src/server/events/event-stream.ts) over the real in-memory event log,
// without a socket: the kernel's socket buffers (several MiB on loopback) would otherwise have
// to fill before the server's own queue grows, which takes tens of thousands of creates.
import { describe, expect, it } from "vitest";
import type { StoreEvent } from "../../src/contract/events.js";
import { openEventStream, type EventStreamSettings } from "../../src/server/events/event-stream.js";
import { MemoryEventLog } from "../../src/store/events/memory-event-log.js";

const settings: EventStreamSettings = { keepAliveMs: 60_000, retryMs: 1_000, maxUnsentBytes: 64 * 1024, revocationCheckMs: 60_000 };
const timers = { setInterval: () => 0, clearInterval: () => undefined };

function events(log: MemoryEventLog, count: number): StoreEvent[] {
  const first = log.last + 1;
  return Array.from({ length: count }, (_, n) => ({ type: "pet.created", id: first + n, at: new Date().toISOString(), data: { id: first + n, name: "x".repeat(200) } }));
}

describe("an event stream whose consumer does not read", () => {
  it("is cut once its unsent bytes pass the limit, drops its queue and unsubscribes", async () => {
    const log = new MemoryEventLog(0, Date.now);
    let ended = 0;
    let subscribers = 0;
    const counting = { ...log, since: log.since.bind(log), lastId: log.lastId.bind(log), subscribe: (listener: (e: readonly StoreEvent[]) => void) => {
      subscribers++;
      const off = log.subscribe(listener);
      return () => {
        subscribers--;
        off();
      };
    } };
    const stream = openEventStream({}, { feed: counting, settings, timers, isRevoked: async () => false, onEnd: () => ended++ });
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (let round = 0; round < 100 && ended === 0; round++) log.publish(events(log, 10));
    expect(ended).toBe(1);
    expect(subscribers).toBe(0);
    // Fewer than all the rounds: it stopped at the limit, some 64 KiB of ~300-byte events.
    expect(log.last).toBeLessThan(400);
    await expect(stream.body.getReader().read()).rejects.toThrow(/too slow/);
  });

  it("is not cut while its consumer keeps up", async () => {
    const log = new MemoryEventLog(0, Date.now);
    let ended = 0;
    const stream = openEventStream({}, { feed: log, settings, timers, isRevoked: async () => false, onEnd: () => ended++ });
    const reader = stream.body.getReader();
    let bytes = 0;
    for (let round = 0; round < 100; round++) {
      log.publish(events(log, 10));
      for (let chunk = await reader.read(); ; chunk = await reader.read()) {
        bytes += chunk.value?.byteLength ?? 0;
        if (new TextDecoder().decode(chunk.value).includes(`id: ${log.last}\n`)) break;
      }
    }
    expect(ended).toBe(0);
    expect(bytes).toBeGreaterThan(settings.maxUnsentBytes * 4);
    stream.end();
    expect(ended).toBe(1);
  });
});

describe("the in-memory backlog", () => {
  it("keeps at least the last N events or the last hour, whichever holds more, and answers older ids with reset", async () => {
    let now = 0;
    const log = new MemoryEventLog(100, () => now, { events: 3, ms: 1_000 });
    const at = (ms: number) => new Date(ms).toISOString();
    log.publish([101, 102, 103, 104, 105].map((id) => ({ type: "pet.deleted", id, at: at(0), data: { id } })));
    // All younger than the hour-rule: all kept.
    expect((await log.since(100)).events.map((e) => e.id)).toEqual([101, 102, 103, 104, 105]);
    expect((await log.since(99)).reset).toBe(true);
    now = 5_000;
    log.publish([{ type: "pet.deleted", id: 106, at: at(5_000), data: { id: 106 } }]);
    // Now the count rule alone holds: the last 3.
    expect((await log.since(102)).reset).toBe(true);
    expect((await log.since(103)).events.map((e) => e.id)).toEqual([104, 105, 106]);
    expect((await log.since(106)).events).toEqual([]);
  });
});
