// Tickets for GET /v1/events from a browser's EventSource, which cannot send Authorization.
// A ticket is asked for with the key (POST /v1/events/tickets) and sent as ?ticket= on the
// stream's URL. Since that URL lands in proxies' and browsers' logs, the ticket is not the key:
// it opens event streams only, for one key, for 60 seconds, and our logs mask it (redactSecrets).
// Stateless (an HMAC under the key's stored hash), so any instance on the same database accepts
// it; a revoked, expired or rotated key's tickets stop working with it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { EVENT_TICKET_TTL_SECONDS } from "../../contract/events.js";
import type { KeyRecord } from "../../store/key-store.js";

const TICKET = /^evt_(key_[0-9A-Za-z_]{1,40})\.([0-9]{10})\.([0-9A-Za-z_-]{43})$/;

export interface EventTicket {
  ticket: string;
  expiresAt: string;
}

/** A new ticket for `key`, valid EVENT_TICKET_TTL_SECONDS from `now` (ms). */
export function issueEventTicket(key: KeyRecord, now: number): EventTicket {
  const expires = Math.floor(now / 1000) + EVENT_TICKET_TTL_SECONDS;
  return { ticket: `evt_${key.id}.${expires}.${mac(key, expires)}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** The key a ticket was issued to, or why it opens nothing. */
export async function keyOfTicket(
  ticket: string,
  findKey: (id: string) => Promise<KeyRecord | undefined>,
  now: number,
): Promise<{ key: KeyRecord; problem?: undefined } | { key?: undefined; problem: string }> {
  const [, id, expiresText, signature] = TICKET.exec(ticket) ?? [];
  if (id === undefined || expiresText === undefined || signature === undefined) return { problem: "the ticket is not valid" };
  const expires = Number(expiresText);
  if (expires * 1000 <= now) return { problem: "the ticket has expired: ask POST /v1/events/tickets for a new one" };
  const key = await findKey(id);
  if (!key || !sameText(mac(key, expires), signature)) return { problem: "the ticket is not valid" };
  return { key };
}

function mac(key: KeyRecord, expires: number): string {
  return createHmac("sha256", key.hash).update(`petstore event ticket v1|${key.id}|${expires}`).digest("base64url");
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
