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

/**
 * A world built from the seed and not yet running: nothing is sent from it until `start`. Building
 * one (a copy of the seed's pet index, the app over it) is most of a reset's cost, so the next world
 * is built ahead, while the tests that use the current one run.
 */
export interface StagedWorld {
  start(): World;
  /** Throws away a world that never started (the server stops first). */
  discard(): Promise<void>;
}

/** The current world, and a reset that replaces it; the listener's fetch always reaches the current one. */
export class EphemeralWorlds {
  #current: World;
  readonly #stage: () => Promise<StagedWorld>;
  /** The next world, built once the last reset has answered. */
  #spare: Promise<StagedWorld> | undefined;
  /** Resets run one after another: two at once would both build, and the first would be lost. */
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(first: World, stage: () => Promise<StagedWorld>) {
    this.#current = first;
    this.#stage = stage;
    this.#stageSpare();
  }

  static async open(stage: () => Promise<StagedWorld>): Promise<EphemeralWorlds> {
    return new EphemeralWorlds((await stage()).start(), stage);
  }

  get current(): World {
    return this.#current;
  }

  readonly fetch = (request: Request): ReturnType<H3["fetch"]> => this.#current.app.fetch(request);

  /**
   * Swaps in the world built ahead (or builds one), then ends the old one's streams with a `reset`
   * event and its deliveries: attempts under way are cut off before the reset answers, so no
   * delivery of the old world starts or ends after it, and none pending is ever sent.
   */
  reset(): Promise<void> {
    const run = this.#queue.then(async () => {
      const staged = await this.#takeSpare();
      const old = this.#current;
      this.#current = staged.start();
      old.streams.endAll(sseServerReset());
      await old.deliveries.abandon();
      // In memory: closing settles its timers; nothing is written.
      await Promise.allSettled([old.limiter.close(), old.store.close()]);
      this.#stageSpare();
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue;
    const spare = this.#spare;
    this.#spare = undefined;
    await spare?.then((staged) => staged.discard()).catch(() => {});
    const world = this.#current;
    world.streams.endAll();
    // Nothing pending outlives the process anyway: waiting for a slow receiver would only delay the stop.
    await world.deliveries.abandon();
    await world.limiter.close();
    await world.store.close();
  }

  /** A spare that failed to build is built again by the reset that needs it, which then reports why. */
  async #takeSpare(): Promise<StagedWorld> {
    const spare = this.#spare;
    this.#spare = undefined;
    return (await spare?.catch(() => undefined)) ?? (await this.#stage());
  }

  /** After the current turn of the event loop, so that the reset's answer goes out first. */
  #stageSpare(): void {
    if (this.#closed) return;
    this.#spare = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#stage());
    this.#spare.catch(() => {});
  }
}
