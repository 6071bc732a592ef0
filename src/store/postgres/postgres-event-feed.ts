import pg, { type Pool } from "pg";
import { EVENT_BACKLOG, type EventType, type StoreEvent } from "../../contract/events.js";
import { messageOf } from "../../support/error-text.js";
import type { EventFeed, Replay } from "../event-feed.js";

interface EventRow {
  id: string;
  type: EventType;
  at: Date;
  data: Record<string, unknown>;
}

const CHANNEL = "petstore_events";
const PAGE = 1000;
const TRIM_EVERY_MS = 60_000;
const RECONNECT_MS = 1_000;

/**
 * The events table (migration 5) as a feed. One dedicated connection LISTENs; each NOTIFY
 * (sent at the commit of any instance's change) reads the rows after the last one seen and
 * hands them to this process's subscribers. Ids follow commit order (the trigger's lock), so
 * "after the last seen" never misses a row.
 */
export class PostgresEventFeed implements EventFeed {
  readonly #pool: Pool;
  readonly #url: string;
  readonly #warn: (message: string) => void;
  readonly #listeners = new Set<(events: readonly StoreEvent[]) => void>();
  #client: pg.Client | undefined;
  #lastSeen = 0;
  #reading: Promise<void> | undefined;
  #again = false;
  #closed = false;
  #trimTimer: NodeJS.Timeout | undefined;

  constructor(pool: Pool, url: string, warn: (message: string) => void) {
    this.#pool = pool;
    this.#url = url;
    this.#warn = warn;
  }

  /** Starts listening from the newest event. */
  async open(): Promise<void> {
    this.#lastSeen = await this.lastId();
    await this.#listen();
    this.#trimTimer = setInterval(() => void this.#trim(), TRIM_EVERY_MS);
    this.#trimTimer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#trimTimer);
    await this.#client?.end().catch(() => undefined);
    await this.#reading;
  }

  async since(lastId: number): Promise<Replay> {
    const { rows } = await this.#pool.query<{ first_kept: string; last: string | null }>(
      "SELECT first_kept, (SELECT max(id) FROM events) AS last FROM events_floor",
    );
    const firstKept = Number(rows[0]?.first_kept ?? 1);
    // Older than the backlog, or newer than any committed event (another database's id, or one
    // from before a restore): the client lists again. The table, not this instance's last NOTIFY,
    // says what is newest, so an id another instance has just sent is never taken for newer.
    if (lastId < firstKept - 1 || lastId > Math.max(Number(rows[0]?.last ?? 0), firstKept - 1)) return { reset: true, events: [] };
    const events: StoreEvent[] = [];
    for (let after = lastId; ; ) {
      const page = await this.#read(after);
      events.push(...page);
      if (page.length < PAGE) return { reset: false, events };
      after = page[page.length - 1]!.id;
    }
  }

  subscribe(listener: (events: readonly StoreEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async lastId(): Promise<number> {
    const { rows } = await this.#pool.query<{ id: string | null }>("SELECT max(id) AS id FROM events");
    return Number(rows[0]?.id ?? 0);
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, application_name: "petstore-events" });
    client.on("notification", () => this.#wake());
    client.on("error", (error) => this.#lost(client, error));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.#client = client;
    // Changes made while not listening (a reconnect) are read now.
    this.#wake();
  }

  #lost(client: pg.Client, error: Error): void {
    if (this.#closed || this.#client !== client) return;
    this.#warn(`event listener lost its PostgreSQL connection (${error.message}); reconnecting`);
    this.#client = undefined;
    void client.end().catch(() => undefined);
    const retry = () => {
      if (this.#closed) return;
      this.#listen().catch((failure: unknown) => {
        this.#warn(`event listener cannot reconnect: ${messageOf(failure)}`);
        setTimeout(retry, RECONNECT_MS).unref();
      });
    };
    setTimeout(retry, RECONNECT_MS).unref();
  }

  // One read at a time; a notification during a read asks for one more.
  #wake(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = this.#drain().finally(() => (this.#reading = undefined));
  }

  async #drain(): Promise<void> {
    do {
      this.#again = false;
      try {
        for (let page = await this.#read(this.#lastSeen); page.length > 0; page = await this.#read(this.#lastSeen)) {
          this.#lastSeen = page[page.length - 1]!.id;
          for (const listener of this.#listeners) listener(page);
          if (page.length < PAGE) break;
        }
      } catch (error) {
        if (!this.#closed) this.#warn(`cannot read new events: ${messageOf(error)}`);
      }
    } while (this.#again && !this.#closed);
  }

  async #read(after: number): Promise<StoreEvent[]> {
    const { rows } = await this.#pool.query<EventRow>("SELECT id, type, at, data FROM events WHERE id > $1 ORDER BY id LIMIT $2", [after, PAGE]);
    return rows.map((row) => ({ type: row.type, id: Number(row.id), at: row.at.toISOString(), data: row.data }));
  }

  // Keeps the newest EVENT_BACKLOG.events, and any younger than EVENT_BACKLOG.ms, whichever is more.
  async #trim(): Promise<void> {
    const sql = `
      WITH bounds AS (
        SELECT (SELECT id FROM events ORDER BY id DESC OFFSET $1 LIMIT 1) AS by_count,
               (SELECT max(id) FROM events WHERE at < now() - make_interval(secs => $2)) AS by_age
      ), cut AS (
        -- Both rules must let an event go; least() alone would skip a NULL (nothing to trim).
        SELECT CASE WHEN by_count IS NULL OR by_age IS NULL THEN NULL ELSE least(by_count, by_age) END AS below FROM bounds
      ), gone AS (DELETE FROM events WHERE id <= (SELECT below FROM cut) RETURNING id)
      UPDATE events_floor SET first_kept = greatest(first_kept, (SELECT max(id) + 1 FROM gone)) WHERE EXISTS (SELECT 1 FROM gone)`;
    await this.#pool.query(sql, [EVENT_BACKLOG.events, EVENT_BACKLOG.ms / 1000]).catch((error: unknown) => {
      if (!this.#closed) this.#warn(`cannot trim old events: ${messageOf(error)}`);
    });
  }
}
