// `serve --ephemeral`: everything the API holds lives in one "world" (store, limiter, open streams,
// the app over them), and a reset swaps in a fresh one built from the seed. A new world rather than
// clearing each part: nothing kept anywhere (counters, bans, idempotency records, the event
// backlog, cached pages) can survive a reset by being forgotten.
import type { H3 } from "h3";
import type { RateLimiter } from "../../limits/rate-limiter.js";
import type { Store } from "../../store/store.js";
import { sseServerReset } from "../events/sse-format.js";
import type { StreamRegistry } from "../events/stream-registry.js";
import type { RunningDeliveries } from "../webhooks/start-deliveries.js";

export interface World {
  store: Store;
  limiter: RateLimiter;
  streams: StreamRegistry;
  /** The webhook deliveries of this world's store, sent as the file engine sends them. */
  deliveries: RunningDeliveries;
  app: Pick<H3, "fetch">;
}

/** The current world, and a reset that replaces it; the listener's fetch always reaches the current one. */
export class EphemeralWorlds {
  #current: World;
  readonly #build: () => Promise<World>;
  /** Resets run one after another: two at once would both build, and the first would be lost. */
  #queue: Promise<void> = Promise.resolve();

  private constructor(first: World, build: () => Promise<World>) {
    this.#current = first;
    this.#build = build;
  }

  static async open(build: () => Promise<World>): Promise<EphemeralWorlds> {
    return new EphemeralWorlds(await build(), build);
  }

  get current(): World {
    return this.#current;
  }

  readonly fetch = (request: Request): ReturnType<H3["fetch"]> => this.#current.app.fetch(request);

  /**
   * Builds a world from the seed, swaps it in, then ends the old one's streams with a `reset` event
   * and its deliveries: attempts under way are cut off before the reset answers, so no delivery of
   * the old world starts or ends after it, and none pending is ever sent.
   */
  reset(): Promise<void> {
    const run = this.#queue.then(async () => {
      const next = await this.#build();
      const old = this.#current;
      this.#current = next;
      old.streams.endAll(sseServerReset());
      await old.deliveries.abandon();
      // In memory: closing settles its timers; nothing is written.
      await Promise.allSettled([old.limiter.close(), old.store.close()]);
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    await this.#queue;
    const world = this.#current;
    world.streams.endAll();
    // Nothing pending outlives the process anyway: waiting for a slow receiver would only delay the stop.
    await world.deliveries.abandon();
    await world.limiter.close();
    await world.store.close();
  }
}
