// The fan-out's flush policy (src/server/events/event-fan-out.ts): a lone change goes out on the
// next turn; after a write to every stream, the next waits for FLUSH_PAUSE_FACTOR times the CPU
// time that write took, and batches that arrive meanwhile go out together. Real event log, real
// streams, node PassThroughs as their sockets (as in event-stream.test.ts).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { StoreEvent } from "../../src/contract/events.js";
import { EventFanOut, FLUSH_PAUSE_FACTOR } from "../../src/server/events/event-fan-out.js";
import { EventStream, type EventStreamSettings } from "../../src/server/events/event-stream.js";
import { MemoryEventLog } from "../../src/store/events/memory-event-log.js";

const settings: EventStreamSettings = { keepAliveMs: 60_000, retryMs: 1_000, maxUnsentBytes: 1024 * 1024, revocationCheckMs: 60_000 };
const timers = { setInterval: () => 0, clearInterval: () => undefined };
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function publish(log: MemoryEventLog, count = 1): void {
  const first = log.last + 1;
  log.publish(Array.from({ length: count }, (_, n): StoreEvent => ({ type: "pet.created", id: first + n, at: new Date().toISOString(), data: { id: first + n } })));
}

/** A stream on `fanOut` whose socket records each write, and runs `onWrite` (to make a write slow) first. */
function follow(fanOut: EventFanOut, onWrite: () => void = () => {}): Buffer[] {
  const writes: Buffer[] = [];
  const stream = new EventStream({}, { hub: fanOut, keyId: "key_1", isRevoked: async () => false, onEnd: () => {} });
  const sink = new PassThrough();
  sink.resume();
  const write = sink.write.bind(sink);
  sink.write = ((chunk: Buffer) => (onWrite(), writes.push(chunk), write(chunk))) as typeof sink.write;
  stream.pipe(sink);
  return writes;
}

const cpuMs = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1000;

/** Blocks this thread for `ms` without using a CPU, as a server does that waits for a core in the middle of a write. */
const waitOffCpu = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe("the fan-out's pause between writes", () => {
  it("sends a lone change on the next turn, and one after a write that only waited (no CPU) on the next turn too", async () => {
    const log = new MemoryEventLog(0, Date.now);
    const fanOut = new EventFanOut(log, settings, timers, FLUSH_PAUSE_FACTOR, 60_000);
    let slow = false;
    const writes = follow(fanOut, () => slow && waitOffCpu(100));
    await sleep(5);
    const before = writes.length;
    slow = true;
    publish(log);
    await nextTurn();
    // The first change: written at once (the write itself held the thread 100 ms, off the CPU).
    expect(writes.length).toBe(before + 1);
    slow = false;
    // A pause by wall time would hold the next change FLUSH_PAUSE_FACTOR x 100 ms; by CPU time it
    // is a few ms. The wait leaves room for the CPU the process's other threads (GC, a loaded CI
    // machine) use meanwhile, which process.cpuUsage counts too, and stays below the wall-time pause.
    await sleep(FLUSH_PAUSE_FACTOR * 50);
    publish(log);
    await nextTurn();
    expect(writes.length).toBe(before + 2);
    expect(String(writes.at(-1))).toMatch(/^id: 2$/m);
  });

  it("holds changes that arrive within the pause after a costly write, and sends them together", async () => {
    const log = new MemoryEventLog(0, Date.now);
    const fanOut = new EventFanOut(log, settings, timers, FLUSH_PAUSE_FACTOR, 60_000);
    let costly = false;
    // A write that costs 25 ms of CPU (spinning), as one to a few thousand sockets does: a pause of 100 ms follows.
    const writes = follow(fanOut, () => {
      if (!costly) return;
      const cpu = process.cpuUsage();
      while (cpuMs(process.cpuUsage(cpu)) < 25);
    });
    await sleep(5);
    const before = writes.length;
    costly = true;
    publish(log);
    await nextTurn();
    expect(writes.length).toBe(before + 1);
    costly = false;
    publish(log);
    await nextTurn();
    publish(log, 2);
    await nextTurn();
    // Held: still one write since.
    expect(writes.length).toBe(before + 1);
    // Released by the timer once the pause is over, as one write of the three events.
    for (let waited = 0; writes.length === before + 1 && waited < 1_000; waited += 5) await sleep(5);
    expect(writes.length).toBe(before + 2);
    expect(String(writes.at(-1)).match(/^id: /gm)).toHaveLength(3);
  });
});
