// What a key's scopes allow, as the guard and the event stream ask it on every request.
import { readableEventTypes, scopeBit, scopeMask, SCOPES, type Scope } from "../../contract/scopes.js";
import type { EventType } from "../../contract/events.js";
import type { KeyRecord } from "../../store/key-store.js";

/** The bit of each scope, looked up once per request by the operation's scope. */
export const SCOPE_BITS: Readonly<Record<Scope, number>> = Object.freeze(Object.fromEntries(SCOPES.map((scope) => [scope, scopeBit(scope)])) as Record<Scope, number>);

// A key's scopes as one number, computed once per scopes array: records are frozen and replaced
// (a use, a rotation) with the same array, so a busy key finds its mask at every request.
const masks = new WeakMap<readonly Scope[], number>();

/** The key's scopes as bits (SCOPE_BITS): `(scopeMaskOf(key) & bit) !== 0` when it holds that scope. */
export function scopeMaskOf(key: KeyRecord): number {
  let mask = masks.get(key.scopes);
  if (mask === undefined) masks.set(key.scopes, (mask = scopeMask(key.scopes)));
  return mask;
}

/** The event types the key may receive, on any channel that carries events. */
export function eventTypesFor(key: KeyRecord): EventType[] {
  return readableEventTypes(key.scopes, key.admin);
}

/** `Bearer error="insufficient_scope", scope="pets:write"` (RFC 6750 3.1): the scopes that would do. */
export function insufficientScopeChallenge(scopes: readonly Scope[]): string {
  return `Bearer error="insufficient_scope", scope="${scopes.join(" ")}"`;
}

/** The message of a 403 insufficient_scope: what was needed, and what the key holds. */
export function insufficientScopeMessage(needed: string, key: KeyRecord): string {
  const held = key.scopes.length === 0 ? "none" : key.scopes.join(", ");
  return `this API key lacks the scope ${needed} (it holds ${held}); an admin can create a key that has it`;
}
