// What a key may do, as scopes: shared by the server (which checks them), the stores (which keep
// them), the document and the CLI (which completes and checks them). Free of zod, for start-up.
import { EVENT_TYPES, type EventType } from "./events.js";

/** Every scope a key can hold, in the order they are listed and stored. */
export const SCOPES = ["pets:read", "pets:write", "orders:read", "orders:write", "events:read"] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * The scopes of a key created without `scopes`, and of every key stored before keys had scopes:
 * all five, what a non-admin key could always do. A fixed list, not "every scope there is", so
 * a scope added later is not granted to old keys by surprise.
 */
export const UNSCOPED_KEY_SCOPES: readonly Scope[] = Object.freeze([...SCOPES]);

/** What each scope allows, for help texts and the document. */
export const SCOPE_MEANINGS: Readonly<Record<Scope, string>> = {
  "pets:read": "list and read pets, and the inventory",
  "pets:write": "create, update and delete pets",
  "orders:read": "list and read orders",
  "orders:write": "place orders and move them on",
  "events:read": "open the event stream (and get tickets for it)",
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scopes in their canonical order, each once: how a key's scopes are stored and shown. */
export function canonicalScopes(scopes: Iterable<Scope>): Scope[] {
  const held = new Set(scopes);
  return SCOPES.filter((scope) => held.has(scope));
}

/** One bit per scope, so a key's scopes are one number and a check is one AND. */
export function scopeBit(scope: Scope): number {
  return 1 << SCOPES.indexOf(scope);
}

/** The bits of `scopes`, e.g. scopeMask(["pets:read"]) === scopeBit("pets:read"). */
export function scopeMask(scopes: Iterable<Scope>): number {
  let mask = 0;
  for (const scope of scopes) mask |= scopeBit(scope);
  return mask;
}

/**
 * The scope that lets a key read events of a type: `pet.*` needs pets:read, `order.*` orders:read.
 * Null for `webhook.*`: no scope grants them, only admin keys read them (endpoints are admin business).
 */
export function scopeToRead(type: EventType): Scope | null {
  if (type.startsWith("pet.")) return "pets:read";
  return type.startsWith("order.") ? "orders:read" : null;
}

/**
 * The event types a key with these scopes (and admin or not) may receive, whatever carries them
 * (the event stream today, webhooks later): the one place that says so.
 */
export function readableEventTypes(scopes: Iterable<Scope>, admin = false): EventType[] {
  const held = new Set(scopes);
  return EVENT_TYPES.filter((type) => {
    const scope = scopeToRead(type);
    return scope === null ? admin : held.has(scope);
  });
}
