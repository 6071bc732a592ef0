import type { H3Event } from "h3";
import { RotateKeySchema, type CreatedKey } from "../../contract/schemas.js";
import { describeIssue } from "../../contract/validation.js";
import { invalidBody, notFound } from "../errors.js";
import { readJsonBody } from "../internal/json-body.js";
import { safeEcho } from "../../support/safe-echo.js";
import { displayPrefix, generateApiKey, hashApiKey } from "../keys/secrets.js";
import type { KeyLimits } from "../../contract/schemas.js";
import type { KeyRecord, KeyStore } from "../../store/key-store.js";

export interface RotateKeyDeps {
  keys: KeyStore;
  limitsOf: (key: KeyRecord) => KeyLimits;
  now: () => number;
}

/** Without graceSeconds: an hour, time enough to roll the new secret out to a fleet of clients. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 3600;

/**
 * POST /v1/keys/{id}/rotate: a new secret for the same key (id, plan, counters are keyed by id).
 * The new secret is in this answer and nowhere else; the old one works until the grace ends.
 */
export async function rotateKey(event: H3Event, id: string, deps: RotateKeyDeps): Promise<CreatedKey> {
  const parsed = RotateKeySchema.safeParse(await readJsonBody(event));
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const graceSeconds = parsed.data.graceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS;
  const now = deps.now();
  const secret = generateApiKey();
  const graceUntil = new Date(now + graceSeconds * 1000).toISOString();
  const rotation = { hash: hashApiKey(secret), prefix: displayPrefix(secret), graceUntil, at: new Date(now).toISOString() };
  const rotated = await deps.keys.rotate(id, rotation);
  if (!rotated) throw notFound(`no key with id "${safeEcho(id)}"`);
  if (rotated.revokedAt !== null) throw notFound(`the key "${safeEcho(id)}" is revoked: create a new one`);
  const { prefix, plan, name, createdAt } = rotated;
  return {
    id,
    key: secret,
    prefix,
    plan,
    name,
    scopes: [...rotated.scopes],
    limits: deps.limitsOf(rotated),
    createdAt,
    expiresAt: rotated.expiresAt ?? null,
    previousSecretValidUntil: graceUntil,
  };
}
