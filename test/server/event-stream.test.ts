// One subscriber's stream (src/server/events/event-stream.ts) over the real in-memory event log
// and the real fan-out, into a node PassThrough (what srvx pipes it to under app.fetch) rather
// than a socket: the kernel's socket buffers (several MiB on loopback) would otherwise have to
// fill before the server's own queue grows, which takes tens of thousands of creates. The same
// cut over a real socket is in test/server/events-slow-consumer.test.ts.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { StoreEvent } from "../../src/contract/events.js";
import { EventFanOut } from "../../src/server/events/event-fan-out.js";
import { EventStream, type EventStreamSettings } from "../../src/server/events/event-stream.js";
import { MemoryEventLog } from "../../src/store/events/memory-event-log.js";

const settings: EventStreamSettings = { keepAliveMs: 60_000, retryMs: 1_000, maxUnsentBytes: 64 * 1024, revocationCheckMs: 60_000 };
const timers = { setInterval: () => 0, clearInterval: () => undefined };

function events(log: MemoryEventLog, count: number): StoreEvent[] {
  const first = log.last + 1;
  return Array.from({ length: count }, (_, n) => ({ type: "pet.created", id: first + n, at: new Date().toISOString(), data: { id: first + n, name: "x".repeat(200) } }));
}

function open(log: MemoryEventLog, onEnd: () => void, request = {}) {
  // No pause between writes: each publish is written on the next turn, as a quiet server does.
  const fanOut = new EventFanOut(log, settings, timers, 0);
  const stream = new EventStream(request, { hub: fanOut, keyId: "key_1", isRevoked: async () => false, onEnd });
  const sink = stream.pipe(new PassThrough());
  return { fanOut, stream, sink };
}

describe("an event stream whose consumer does not read", () => {
  it("is cut once its unsent bytes pass the limit, drops its queue and leaves the feed", async () => {
    const log = new MemoryEventLog(0, Date.now);
    let ended = 0;
    const { fanOut, sink } = open(log, () => ended++);
    const failed = new Promise((resolve) => sink.once("error", resolve));
    await new Promise((resolve) => setTimeout(resolve, 10));
    let mostUnsent = 0;
    for (let round = 0; round < 100 && ended === 0; round++) {
      log.publish(events(log, 10));
      await new Promise((resolve) => setImmediate(resolve));
      // The writable side is what the server holds; the readable side (16 KiB) stands in for the kernel's buffers.
      mostUnsent = Math.max(mostUnsent, sink.writableLength);
    }
    expect(ended).toBe(1);
    expect(fanOut.size).toBe(0);
    // Fewer than all the rounds: it stopped at the limit, some 64 KiB of ~300-byte events.
    expect(log.last).toBeLessThan(400);
    // Never more than the limit plus one batch (10 events of ~300 bytes) held for it.
    expect(mostUnsent).toBeLessThan(settings.maxUnsentBytes + 10 * 400);
    expect(String(await failed)).toMatch(/too slow/);
    expect(sink.destroyed).toBe(true);
  });

  it("is not cut while its consumer keeps up", async () => {
    const log = new MemoryEventLog(0, Date.now);
    let ended = 0;
    const { fanOut, stream, sink } = open(log, () => ended++);
    let bytes = 0;
    let text = "";
    sink.on("data", (chunk: Buffer) => {
      bytes += chunk.byteLength;
      text = (text + chunk.toString()).slice(-1000);
    });
    for (let round = 0; round < 100; round++) {
      log.publish(events(log, 10));
      while (!text.includes(`id: ${log.last}\n`)) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(ended).toBe(0);
    expect(bytes).toBeGreaterThan(settings.maxUnsentBytes * 4);
    stream.end();
    expect(ended).toBe(1);
    expect(fanOut.size).toBe(0);
  });

  it("frames each batch once for every stream with the same filter, and writes batches close together as one", async () => {
    const log = new MemoryEventLog(0, Date.now);
    // A pause after each write of a million times its length (up to a minute): the next batches wait.
    const fanOut = new EventFanOut(log, settings, timers, 1_000_000, 60_000);
    const written: unknown[][] = [[], []];
    for (const chunks of written) {
      const stream = new EventStream({}, { hub: fanOut, keyId: "key_1", isRevoked: async () => false, onEnd: () => {} });
      const sink = new PassThrough();
      const write = sink.write.bind(sink);
      sink.write = ((chunk: Buffer) => (chunks.push(chunk), write(chunk))) as typeof sink.write;
      stream.pipe(sink);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    log.publish(events(log, 3));
    await new Promise((resolve) => setImmediate(resolve));
    // The retry line, then one write of the first batch, the very same bytes on both streams.
    expect(written[0]).toHaveLength(2);
    expect(written[1]![1]).toBe(written[0]![1]);
    expect(String(written[0]![1]).match(/^id: /gm)).toHaveLength(3);
    // Two more batches within the gap: held back, then written together.
    log.publish(events(log, 2));
    log.publish(events(log, 2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written[0]).toHaveLength(2);
    // Until the pause is over, or something (a stream that ends) asks for them now.
    fanOut.flush();
    expect(written[0]).toHaveLength(3);
    expect(String(written[0]![2]).match(/^id: /gm)).toHaveLength(4);
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
