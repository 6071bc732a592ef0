import type { StoreEvent } from "../../contract/events.js";
import type { EventFeed } from "../../store/event-feed.js";
import type { EventStream, EventStreamSettings, StreamHub, StreamTimers } from "./event-stream.js";
import { FramedBatch } from "./sse-format.js";

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

  constructor(feed: EventFeed, settings: EventStreamSettings, timers: StreamTimers) {
    this.feed = feed;
    this.settings = settings;
    this.#timers = timers;
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
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    for (const handle of this.#handles) this.#timers.clearInterval(handle);
    this.#handles = [];
  }

  #publish(events: readonly StoreEvent[]): void {
    const batch = new FramedBatch(events);
    // A stream cut while it writes leaves the set during the loop, which a Set allows.
    for (const stream of this.#streams) stream.receive(batch);
  }

  #keepAlive(): void {
    for (const stream of this.#streams) stream.keepAlive();
  }

  /** One lookup per key, however many streams it holds; a lookup that fails keeps the streams (the key was valid when they opened). */
  async #checkRevoked(): Promise<void> {
    if (this.#checking) return;
    this.#checking = true;
    try {
      const byKey = new Map<string, EventStream[]>();
      for (const stream of this.#streams) {
        const held = byKey.get(stream.keyId);
        if (held) held.push(stream);
        else byKey.set(stream.keyId, [stream]);
      }
      const checks = [...byKey.values()].map(async (streams) => {
        if (await streams[0]!.isRevoked().catch(() => false)) for (const stream of streams) stream.end();
      });
      await Promise.all(checks);
    } finally {
      this.#checking = false;
    }
  }
}
