import pg from "pg";
import { messageOf } from "../../support/error-text.js";
import type { KeyCache } from "./key-cache.js";
import { KEY_CHANGES_CHANNEL } from "./keys-migration.js";

const RECONNECT_MS = 1_000;
/** A write waits at most this long for its own announcement before answering anyway. */
const ANNOUNCEMENT_WAIT_MS = 1_000;

const LISTENER_NAME = "petstore-keys";
const ACKS_CHANNEL = `${KEY_CHANGES_CHANNEL}_heard`;

interface Waiter {
  acks: number;
  needed: number;
  done: () => void;
}

/** What a key write waits for before it answers: that its change was announced. */
export interface KeyAnnouncements {
  /**
   * Called before the write; after it, the returned function waits for this key's change to
   * come back when the write changed the key, and only forgets the expectation when it did not.
   */
  expect(id: string): (changed: boolean) => Promise<void>;
}

/**
 * Listens for key changes (migration 7's NOTIFY) on a connection of its own and applies them
 * to the cache. The cache is trusted only while this connection listens: when it is lost, the
 * cache is emptied and bypassed (every request asks PostgreSQL, as without a cache) until
 * listening again, so a revocation is never missed.
 */
export class KeyChangeListener implements KeyAnnouncements {
  readonly #url: string;
  readonly #cache: KeyCache;
  readonly #warn: (message: string) => void;
  #client: pg.Client | undefined;
  #closed = false;
  /** Writes waiting for acknowledgements of their key's change: how many are still missing. */
  readonly #waiting = new Map<string, Set<Waiter>>();

  constructor(url: string, cache: KeyCache, warn: (message: string) => void) {
    this.#url = url;
    this.#cache = cache;
    this.#warn = warn;
  }

  async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, application_name: LISTENER_NAME });
    client.on("notification", (message) => {
      if (message.channel === KEY_CHANGES_CHANNEL) this.#changed(client, message.payload);
      else this.#acknowledged(message.payload);
    });
    client.on("error", (error) => this.#lost(client, error));
    client.on("end", () => this.#lost(client, new Error("the connection ended")));
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}; LISTEN ${ACKS_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) return void (await client.end().catch(() => undefined));
    this.#client = client;
    this.#cache.trust();
  }

  /**
   * PostgreSQL delivers a NOTIFY to each listener after the commit, asynchronously: the writer
   * could answer before another instance has heard of the change, and a quick client could then
   * still be let in there with a revoked key. So every instance acknowledges each change once
   * its cache has forgotten the key, and a revocation or rotation answers only when as many
   * acknowledgements came back as instances listen on this database (itself included). Bounded:
   * an instance that does not answer within ANNOUNCEMENT_WAIT_MS is not waited for longer.
   */
  expect(id: string): (changed: boolean) => Promise<void> {
    const client = this.#client;
    if (client === undefined) return () => Promise.resolve();
    const waiter: Waiter = { acks: 0, needed: Infinity, done: () => undefined };
    const finished = new Promise<void>((resolve) => (waiter.done = resolve));
    const waiters = this.#waiting.get(id) ?? new Set<Waiter>();
    waiters.add(waiter);
    this.#waiting.set(id, waiters);
    const forget = () => {
      waiters.delete(waiter);
      if (waiters.size === 0 && this.#waiting.get(id) === waiters) this.#waiting.delete(id);
    };
    return async (changed) => {
      if (!changed) return forget();
      const timer = setTimeout(waiter.done, ANNOUNCEMENT_WAIT_MS).unref();
      try {
        const { rows } = await client.query<{ listeners: number }>(
          "SELECT count(*)::int AS listeners FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
          [LISTENER_NAME],
        );
        waiter.needed = rows[0]?.listeners ?? 0;
        if (waiter.acks >= waiter.needed) waiter.done();
        await finished;
      } catch {
        // The listening connection failed: #lost has made every cache here distrusted.
      } finally {
        clearTimeout(timer);
        forget();
      }
    };
  }

  #changed(client: pg.Client, payload: string | undefined): void {
    if (payload === "*" || payload === undefined) this.#cache.forgetAll();
    else this.#cache.forget(payload);
    // Forgotten before acknowledged: the writer waiting for this answers only after.
    client.query("SELECT pg_notify($1, $2)", [ACKS_CHANNEL, payload ?? "*"]).catch(() => undefined);
  }

  #acknowledged(payload: string | undefined): void {
    const ids = payload === "*" || payload === undefined ? [...this.#waiting.keys()] : [payload];
    for (const id of ids) {
      for (const waiter of this.#waiting.get(id) ?? []) if (++waiter.acks >= waiter.needed) waiter.done();
    }
  }

  #releaseAll(): void {
    for (const waiters of this.#waiting.values()) for (const waiter of waiters) waiter.done();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#cache.distrust();
    this.#releaseAll();
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  #lost(client: pg.Client, error: Error): void {
    if (this.#closed || this.#client !== client) return;
    this.#cache.distrust();
    // No announcement will come; every cache is bypassed until listening again.
    this.#releaseAll();
    this.#client = undefined;
    this.#warn(`key cache lost its PostgreSQL connection (${error.message}); keys are read from the database until it is back`);
    void client.end().catch(() => undefined);
    const retry = () => {
      if (this.#closed) return;
      this.open().catch((failure: unknown) => {
        this.#warn(`key cache cannot listen again: ${messageOf(failure)}`);
        setTimeout(retry, RECONNECT_MS).unref();
      });
    };
    setTimeout(retry, RECONNECT_MS).unref();
  }
}
