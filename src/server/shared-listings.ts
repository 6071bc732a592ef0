// Kept listings for instances that share one PostgreSQL and one Redis: what lets a listing be
// answered from memory when other processes write too.
import { randomUUID } from "node:crypto";
import type { RedisRateLimiter } from "../limits/redis-rate-limiter.js";
import type { EventFeed } from "../store/event-feed.js";
import type { SharedListingVersion } from "../store/pet-store.js";

/** The token every instance reads before answering a listing from memory. */
export const LISTING_TOKEN_KEY = "petstore:listings:token";

/**
 * A listing kept by one instance is still right while (a) the token in Redis is the one it was
 * made under and (b) this instance has heard of no change since. (a) is what makes a write
 * through another instance visible at once: every write request replaces the token before it
 * is answered (the guard calls `changed()`), so a client that got its 201 from instance A and
 * then lists through instance B makes B read afresh. (b) covers what no request announced (a
 * change made with SQL): the events table's NOTIFY reaches every instance within milliseconds.
 *
 * The token is read by the rate-limit script each request runs first (RedisRateLimiter.alsoRead),
 * so it costs no round trip of its own: replies come in order, so the token held here is at least
 * as new as the one this request's own decision read, after any write its client was answered.
 *
 * The token is random, never a counter: a Redis that restarts empty cannot hand out a token some
 * instance still keeps a listing under. While there is none (an empty Redis), nothing is kept.
 */
export class RedisListingVersion implements SharedListingVersion {
  readonly #limiter: RedisRateLimiter;
  #token: string | null = null;
  /** Moved by each batch of events this instance hears of, whoever made it. */
  #heard = 0;
  #creating = false;

  constructor(limiter: RedisRateLimiter, feed: EventFeed) {
    this.#limiter = limiter;
    limiter.alsoRead(LISTING_TOKEN_KEY, (token) => {
      this.#token = token;
      if (token === null) this.#create();
    });
    feed.subscribe(() => void this.#heard++);
  }

  version(): string | undefined {
    return this.#token === null ? undefined : `${this.#token} ${this.#heard}`;
  }

  async changed(): Promise<void> {
    this.#heard++;
    // A token that could not be replaced (Redis down) leaves the other instances to the events'
    // NOTIFY, which PostgreSQL sends at the commit all the same.
    await this.#limiter.connection.call(["SET", LISTING_TOKEN_KEY, randomUUID()]).catch(() => undefined);
  }

  /** The first decision after an empty start finds no token: one is made (NX: one wins). */
  #create(): void {
    if (this.#creating) return;
    this.#creating = true;
    this.#limiter.connection
      .call(["SET", LISTING_TOKEN_KEY, randomUUID(), "NX"])
      .catch(() => undefined)
      .finally(() => (this.#creating = false));
  }
}
