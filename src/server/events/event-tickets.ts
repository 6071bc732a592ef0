// Tickets for GET /v1/events from a browser's EventSource, which cannot send Authorization.
// A ticket is asked for with the key (POST /v1/events/tickets) and sent as ?ticket= on the
// stream's URL. Since that URL lands in proxies' and browsers' logs, the ticket is not the key:
// it opens one event stream, once, for one key, within 60 seconds, and our logs mask it.
//
// Signed with the server's ticket secret (PETSTORE_TICKET_SECRET, else one drawn at start),
// never with anything stored: a copy of the db or of a backup mints no ticket. It names the
// secret it was asked with (by a tag, not the hash), so it stops working with that secret:
// rotated, revoked or expired. Its random part is its id, spent on first use (SpentTickets).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { EVENT_TICKET_TTL_SECONDS } from "../../contract/events.js";
import type { KeyRecord } from "../../store/key-store.js";
import type { SpentTickets } from "../../store/spent-tickets.js";
import { keyRefusal } from "../keys/key-validity.js";

const TICKET = /^evt_(key_[0-9A-Za-z_]{1,40})\.([0-9]{10})\.([0-9A-Za-z_-]{43})$/;
/** The 32 bytes after the expiry: the ticket's id, the tag of the secret it was asked with, the MAC. */
const NONCE_BYTES = 12;
const TAG_BYTES = 4;
const MAC_BYTES = 16;

export interface EventTicket {
  ticket: string;
  expiresAt: string;
}

/** What a ticket opens: the key, and the hash of the secret the ticket was asked with. */
export type TicketCredential = { key: KeyRecord; hash: string; problem?: undefined } | { key?: undefined; problem: string };

const INVALID = { problem: "the ticket is not valid" } as const;

/** Issues and redeems tickets under one server secret; every instance behind one API needs the same. */
export class EventTickets {
  readonly #secret: Uint8Array;
  readonly #spent: SpentTickets;
  readonly #random: (size: number) => Buffer;

  constructor(secret: string | Uint8Array, spent: SpentTickets, random: (size: number) => Buffer = randomBytes) {
    this.#secret = typeof secret === "string" ? Buffer.from(secret) : secret;
    this.#spent = spent;
    this.#random = random;
  }

  /** A new ticket for `key`, asked for with the secret whose hash is `secretHash`, valid EVENT_TICKET_TTL_SECONDS from `now` (ms). */
  issue(key: KeyRecord, secretHash: string, now: number): EventTicket {
    const expires = Math.floor(now / 1000) + EVENT_TICKET_TTL_SECONDS;
    const head = Buffer.concat([this.#random(NONCE_BYTES), this.#tag(secretHash)]);
    const token = Buffer.concat([head, this.#mac(key.id, expires, head)]).toString("base64url");
    return { ticket: `evt_${key.id}.${expires}.${token}`, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /**
   * The key a ticket opens a stream of, spending the ticket, or why it opens nothing. The
   * signature and the expiry are checked before anything is looked up or spent.
   */
  async redeem(ticket: string, findKey: (id: string) => Promise<KeyRecord | undefined>, now: number): Promise<TicketCredential> {
    const [, id, expiresText, token] = TICKET.exec(ticket) ?? [];
    if (id === undefined || expiresText === undefined || token === undefined) return INVALID;
    const expires = Number(expiresText);
    if (expires * 1000 <= now) return { problem: "the ticket has expired: ask POST /v1/events/tickets for a new one" };
    // No ticket of ours lives longer: a later expiry was written by someone else.
    if (expires > Math.floor(now / 1000) + EVENT_TICKET_TTL_SECONDS) return INVALID;
    const bytes = Buffer.from(token, "base64url");
    const head = bytes.subarray(0, NONCE_BYTES + TAG_BYTES);
    if (!timingSafeEqual(this.#mac(id, expires, head), bytes.subarray(NONCE_BYTES + TAG_BYTES))) return INVALID;
    const key = await findKey(id);
    if (!key) return INVALID;
    const hash = this.#secretHashOf(key, head.subarray(NONCE_BYTES));
    if (hash === undefined) return { problem: "the ticket was asked for with a secret this key no longer has: ask for a new one with the current secret" };
    const problem = keyRefusal(key, hash, now);
    if (problem !== undefined) return { problem };
    const spent = await this.#spent.spend(head.subarray(0, NONCE_BYTES).toString("base64url"), expires * 1000, now);
    if (!spent) return { problem: "the ticket has been used already (a ticket opens one stream): ask POST /v1/events/tickets for a new one" };
    return { key, hash };
  }

  /** Which of the key's secrets (current, or replaced and maybe still in its grace) the tag names. */
  #secretHashOf(key: KeyRecord, tag: Uint8Array): string | undefined {
    // The replaced secret first: on the (2^-32) chance both tags are equal, the stricter one holds.
    if (key.previousHash && timingSafeEqual(this.#tag(key.previousHash), tag)) return key.previousHash;
    return timingSafeEqual(this.#tag(key.hash), tag) ? key.hash : undefined;
  }

  #tag(secretHash: string): Buffer {
    return this.#hmac(`petstore event ticket secret v2|${secretHash}`).subarray(0, TAG_BYTES);
  }

  #mac(keyId: string, expires: number, head: Uint8Array): Buffer {
    return this.#hmac(`petstore event ticket v2|${keyId}|${expires}|${Buffer.from(head).toString("base64url")}`).subarray(0, MAC_BYTES);
  }

  #hmac(text: string): Buffer {
    return createHmac("sha256", this.#secret).update(text).digest();
  }
}

/**
 * The tickets of one server: under `secret` when configured, else under one drawn now, which no
 * other instance shares (`warn` then says so when instances share a database).
 */
export function eventTicketsFor(secret: string | undefined, spent: SpentTickets, shared: boolean, warn: (message: string) => void): EventTickets {
  if (secret === undefined && shared) {
    warn(
      "PostgreSQL without PETSTORE_TICKET_SECRET: event-stream tickets are signed with a secret of this instance only, " +
        "so a ticket opens a stream only on the instance that issued it; give every instance the same PETSTORE_TICKET_SECRET",
    );
  }
  return new EventTickets(secret ?? randomBytes(32), spent);
}
