import { performance } from "node:perf_hooks";
import type { StoreEvent } from "../../contract/events.js";
import type { EventFeed } from "../../store/event-feed.js";
import type { EventStream, EventStreamSettings, StreamHub, StreamTimers } from "./event-stream.js";
import { FramedBatch } from "./sse-format.js";

/**
 * Writes to the streams take at most about 1 / (1 + FLUSH_PAUSE_FACTOR) of the process's CPU:
 * after a write to every stream that cost c ms of CPU, the next waits at least
 * FLUSH_PAUSE_FACTOR * c, and batches that arrive meanwhile go out together. Each write is a
 * syscall per stream (with many streams the kernel's send is most of the server's time), so with
 * many streams the pause, not the rate of changes, sets how often each stream is written, however
 * many pets a second are created. With few streams, or on a quiet
 * server, a batch goes out on the next turn of the event loop. CPU time rather than the wall
 * clock: a server that waited for a core in the middle of a write has not spent that wait
 * writing, and must not stretch its pauses for it. A factor of 2 rather than 4 halves each
 * batch's wait for a modest share more CPU per create (figures in docs/performance.md).
 */
export const FLUSH_PAUSE_FACTOR = 2;
/** ...and at least this long, so that a busy server still coalesces, but never longer than the most (the delivery goal is 100 ms). */
export const MIN_FLUSH_GAP_MS = 2;
export const MAX_FLUSH_GAP_MS = 50;

/**
 * The one subscriber of the feed for all the open streams of a process: each batch is framed
 * once and handed to every stream, and one keep-alive interval and one revocation interval serve
 * them all, instead of a subscription and two timers per stream. It holds the feed and its timers
 * only while a stream is open.
 */
export class EventFanOut implements StreamHub {
  readonly feed: EventFeed;
  readonly settings: EventStreamSettings;
  readonly #timers: StreamTimers;
  readonly #streams = new Set<EventStream>();
  #unsubscribe: (() => void) | undefined;
  #handles: unknown[] = [];
  #checking = false;
  readonly #pauseFactor: number;
  readonly #maxGapMs: number;
  #gapMs = 0;
  /** Events not yet written, and whether a write is due. */
  #pending: StoreEvent[] = [];
  #flushDue: NodeJS.Timeout | NodeJS.Immediate | undefined;
  #lastFlush = -Infinity;

  /** `pauseFactor` 0 writes every batch on the next turn (tests). */
  constructor(feed: EventFeed, settings: EventStreamSettings, timers: StreamTimers, pauseFactor = FLUSH_PAUSE_FACTOR, maxGapMs = MAX_FLUSH_GAP_MS) {
    this.feed = feed;
    this.settings = settings;
    this.#timers = timers;
    this.#pauseFactor = pauseFactor;
    this.#maxGapMs = maxGapMs;
  }

  get size(): number {
    return this.#streams.size;
  }

  join(stream: EventStream): void {
    if (this.#streams.size === 0) this.#start();
    this.#streams.add(stream);
  }

  leave(stream: EventStream): void {
    if (this.#streams.delete(stream) && this.#streams.size === 0) this.#stop();
  }

  #start(): void {
    this.#unsubscribe = this.feed.subscribe((events) => this.#publish(events));
    this.#handles = [
      this.#timers.setInterval(() => this.#keepAlive(), this.settings.keepAliveMs),
      this.#timers.setInterval(() => void this.#checkRevoked(), this.settings.revocationCheckMs),
    ];
  }

  #stop(): void {
    // Nobody left to write to: what is pending is dropped with the last stream.
    clearTimeout(this.#flushDue as NodeJS.Timeout);
    clearImmediate(this.#flushDue as NodeJS.Immediate);
    this.#flushDue = undefined;
    this.#pending = [];
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    for (const handle of this.#handles) this.#timers.clearInterval(handle);
    this.#handles = [];
  }

  #publish(events: readonly StoreEvent[]): void {
    for (const event of events) this.#pending.push(event);
    if (this.#flushDue) return;
    const wait = this.#lastFlush + this.#gapMs - performance.now();
    this.#flushDue = wait > 0 ? setTimeout(() => this.#flush(), wait) : setImmediate(() => this.#flush());
  }

  /** Writes what is pending now: a stream that ends (stop, revocation) first sends every durable event. */
  flush(): void {
    if (this.#flushDue === undefined) return;
    clearTimeout(this.#flushDue as NodeJS.Timeout);
    clearImmediate(this.#flushDue as NodeJS.Immediate);
    this.#flush();
  }

  #flush(): void {
    this.#flushDue = undefined;
    const cpu = process.cpuUsage();
    const batch = new FramedBatch(this.#pending);
    this.#pending = [];
    // A stream cut while it writes leaves the set during the loop, which a Set allows.
    for (const stream of this.#streams) stream.receive(batch);
    this.#lastFlush = performance.now();
    this.#gapMs = this.#pauseFactor === 0 ? 0 : Math.min(this.#maxGapMs, Math.max(MIN_FLUSH_GAP_MS, this.#pauseFactor * cpuMs(process.cpuUsage(cpu))));
  }

  #keepAlive(): void {
    for (const stream of this.#streams) stream.keepAlive();
  }

  /**
   * One lookup per credential, however many streams it opened; a lookup that fails keeps the
   * streams (the credential was valid when they opened).
   */
  async #checkRevoked(): Promise<void> {
    if (this.#checking) return;
    this.#checking = true;
    try {
      const byCredential = new Map<string, EventStream[]>();
      for (const stream of this.#streams) {
        const held = byCredential.get(stream.credential);
        if (held) held.push(stream);
        else byCredential.set(stream.credential, [stream]);
      }
      const checks = [...byCredential.values()].map(async (streams) => {
        if (await streams[0]!.isRevoked().catch(() => false)) for (const stream of streams) stream.end();
      });
      await Promise.all(checks);
    } finally {
      this.#checking = false;
    }
  }
}

const cpuMs = ({ user, system }: NodeJS.CpuUsage): number => (user + system) / 1000;
