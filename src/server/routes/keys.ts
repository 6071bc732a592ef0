// The Keys tag's handlers (the operations of src/contract/operations/keys.ts), and the audit trail
// of every change they make.
import type { H3Event } from "h3";
import type { KEY_ROUTES } from "../../contract/operations/keys.js";
import type { InputOf, Route } from "../../contract/routes.js";
import { NewKeySchema } from "../../contract/schemas.js";
import { describeIssue } from "../../contract/validation.js";
import { API_PREFIX } from "../../contract/constants.js";
import { canonicalScopes, UNSCOPED_KEY_SCOPES } from "../../contract/scopes.js";
import type { CreatedKey, KeyLimits, KeyView } from "../../contract/schemas.js";
import { VERSION } from "../../support/package-info.js";
import type { RateLimiter, WindowState } from "../../limits/rate-limiter.js";
import type { KeyRecord, KeyStore } from "../../store/key-store.js";
import { MAX_KEYS } from "../../contract/limits.js";
import { ApiHttpError, invalidBody, notFound } from "../errors.js";
import type { IdempotentCreates } from "../idempotency/idempotent-creates.js";
import { readJsonBody } from "../internal/json-body.js";
import { issueKey } from "../keys/issue-key.js";
import { futureInstant } from "../keys/key-lifetime.js";
import { safeEcho } from "../../support/safe-echo.js";
import { requestIdOf } from "../internal/request-id.js";
import type { ServerLogger } from "../request-log.js";
import type { HandlersFor } from "./register.js";
import { rotateKey } from "./rotate-key.js";

export interface KeyRoutesDeps {
  keys: KeyStore;
  creates: IdempotentCreates;
  limitsOf: (key: KeyRecord) => KeyLimits;
  now: () => number;
  /** The most keys the store may hold (MAX_KEYS); tests lower it. */
  maxKeys?: number;
}

export interface KeyHandlersDeps extends KeyRoutesDeps {
  limiter: RateLimiter;
  logger: ServerLogger;
}

/** The handler of each operation of the Keys tag; every change is audited once made. */
export function keyHandlers(deps: KeyHandlersDeps): HandlersFor<(typeof KEY_ROUTES)[number]> {
  return {
    listKeys: () => listKeys(deps),
    createKey: async (event, input) => {
      const created = await createKey(event, input, deps);
      // A replayed answer (Idempotency-Key) created nothing: the first answer was audited.
      if (!event.res.headers.has("idempotent-replayed")) audit(event, deps.logger, "key.created", created.id, created.plan);
      return created;
    },
    revokeKey: async (event, { path }) => {
      const result = await revokeKey(event, path.id, deps);
      audit(event, deps.logger, "key.revoked", path.id);
      return result;
    },
    rotateKey: async (event, { path }) => {
      const rotated = await rotateKey(event, path.id, deps);
      audit(event, deps.logger, "key.rotated", rotated.id, rotated.plan);
      return rotated;
    },
    getCurrentKey: (event) => getCurrentKey(event, deps),
  };
}

/** An admin change, for the audit trail: the acting key's id, never a secret. */
function audit(event: H3Event, logger: ServerLogger, action: "key.created" | "key.revoked" | "key.rotated", keyId: string, plan?: string): void {
  const actor = event.context.principal?.id ?? "unknown";
  logger.audit({ action, actor, keyId, plan, requestId: requestIdOf(event) });
}

// Admin only but getCurrentKey: the guard refuses other keys with 403, as the route table says.

/**
 * POST /v1/keys: the secret appears in this response and nowhere else, in clear. With an
 * Idempotency-Key the answer is stored sealed under the caller's own secret (see idempotency/seal.ts).
 */
async function createKey(event: H3Event, { headers }: InputOf<Route<"createKey">>, deps: KeyRoutesDeps): Promise<CreatedKey> {
  const body = await readJsonBody(event);
  const parsed = NewKeySchema.safeParse(body);
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const { plan, name, perMinute, perDay } = parsed.data;
  const scopes = canonicalScopes(parsed.data.scopes ?? UNSCOPED_KEY_SCOPES);
  const limits = perMinute !== undefined && perDay !== undefined ? { perMinute, perDay } : null;
  const expiresAt = futureInstant(parsed.data.expiresAt, deps.now());
  const { secret, record } = issueKey({ plan, name: name ?? null, admin: false, scopes, limits, expiresAt }, deps.now);
  return deps.creates.run<KeyRecord, CreatedKey>(
    event,
    { key: headers["Idempotency-Key"], body },
    async (options) => {
      await checkRoom(deps);
      return deps.keys.create(record, options);
    },
    (created) => ({
      status: 201,
      headers: { location: `${API_PREFIX}/keys/${created.id}` },
      body: {
        id: created.id,
        key: secret,
        prefix: created.prefix,
        plan,
        name: created.name,
        scopes: [...created.scopes],
        limits: deps.limitsOf(created),
        createdAt: created.createdAt,
        ...expiryOf(created),
      },
    }),
  );
}

/** listKeys answers every key at once, so their number is bounded (the document's maxItems). */
async function checkRoom(deps: KeyRoutesDeps): Promise<void> {
  const max = deps.maxKeys ?? MAX_KEYS;
  if ((await deps.keys.list()).length >= max) {
    throw new ApiHttpError("too_many_keys", `the store already holds ${max} keys, revoked ones included: remove revoked keys from the db first`);
  }
}

/** GET /v1/keys: every key, without secrets or hashes. */
async function listKeys(deps: KeyRoutesDeps): Promise<KeyView[]> {
  return (await deps.keys.list()).map((record) => toKeyView(record, deps.limitsOf(record)));
}

/** DELETE /v1/keys/{id}: the key is refused from the very next request. */
async function revokeKey(event: H3Event, id: string, deps: KeyRoutesDeps): Promise<null> {
  const revoked = await deps.keys.revoke(id, new Date(deps.now()));
  if (!revoked) throw notFound(`no key with id "${safeEcho(id)}"`);
  event.res.status = 204;
  return null;
}

/** GET /v1/keys/current: the caller's own key, what is left of its windows, and this server's version. */
async function getCurrentKey(event: H3Event, deps: KeyRoutesDeps & { limiter: RateLimiter }) {
  // The guard let only a valid key through and set it here.
  const key = event.context.principal;
  if (!key) throw new Error("getCurrentKey reached without a principal");
  const limits = deps.limitsOf(key);
  const usage = await deps.limiter.peek(`key:${key.id}`, limits);
  const [minute, day] = usage.windows.map(toUsageWindow);
  return {
    key: toKeyView(key, limits),
    usage: { minute, day, bannedUntil: usage.bannedUntil === null ? null : new Date(usage.bannedUntil).toISOString() },
    server: { version: VERSION },
  };
}

// Only on keys that expire: the answer for the others stays as it was before keys could.
function expiryOf(record: KeyRecord): { expiresAt?: string } {
  return record.expiresAt ? { expiresAt: record.expiresAt } : {};
}

function toUsageWindow(window: WindowState) {
  return { limit: window.limit, remaining: window.remaining, resetAt: new Date(window.resetAt * 1000).toISOString() };
}

function toKeyView(record: KeyRecord, limits: KeyLimits): KeyView {
  const { id, prefix, plan, name, admin, createdAt, revokedAt, lastUsedAt } = record;
  const ends = { expiresAt: record.expiresAt ?? null, rotatedAt: record.rotatedAt ?? null };
  return { id, prefix, plan, name, admin, scopes: [...record.scopes], limits, createdAt, revokedAt, lastUsedAt, ...ends };
}
