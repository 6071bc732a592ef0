// Which event types a stream carries: those asked (all when none), each one the key may read (by
// its scopes; webhook.* only as an admin). Asked for one it may not, or able to read none, the
// stream is refused before it opens.
import { EVENT_TYPES, type EventType } from "../../contract/events.js";
import { scopeToRead, type Scope } from "../../contract/scopes.js";
import type { KeyRecord } from "../../store/key-store.js";
import { ApiHttpError, invalidParameter } from "../errors.js";
import { eventTypesFor, insufficientScopeChallenge, insufficientScopeMessage } from "../keys/key-scopes.js";

/** Either scope lets a stream carry something: pets:read its pet.*, orders:read its order.* events. */
const EITHER_READ_SCOPE: readonly Scope[] = ["pets:read", "orders:read"];

/**
 * The types the stream of `key` carries: undefined for every type (the usual case, filtered by
 * nothing), else a set. Throws 403 insufficient_scope naming the scope that is missing.
 */
export function streamTypes(key: KeyRecord, asked: ReadonlySet<EventType> | undefined): ReadonlySet<EventType> | undefined {
  const readable = eventTypesFor(key);
  if (readable.length === 0) throw refusal(EITHER_READ_SCOPE, "pets:read or orders:read", key);
  if (asked === undefined) return readable.length === EVENT_TYPES.length ? undefined : new Set(readable);
  for (const type of asked) {
    if (readable.includes(type)) continue;
    const scope = scopeToRead(type);
    // No scope would do, so no insufficient_scope challenge could name one: the parameter is refused.
    if (scope === null) throw invalidParameter("types", `names ${type}, which only admin keys receive`);
    throw refusal([scope], `${scope} (for ${type} events)`, key);
  }
  return asked;
}

function refusal(scopes: readonly Scope[], needed: string, key: KeyRecord): ApiHttpError {
  return new ApiHttpError("insufficient_scope", insufficientScopeMessage(needed, key), { "www-authenticate": insufficientScopeChallenge(scopes) });
}
