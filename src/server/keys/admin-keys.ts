import type { KeyRecord, KeyStore } from "../../store/key-store.js";
import type { ServerLogger } from "../request-log.js";
import { displayPrefix, generateApiKey, generateKeyId, hashApiKey } from "./secrets.js";

/** PETSTORE_ADMIN_KEY as a key record: valid while the variable is set, never stored. */
export function environmentAdminKey(secret: string, now: () => number): KeyRecord {
  return {
    id: "key_environment_admin",
    hash: hashApiKey(secret),
    prefix: displayPrefix(secret),
    plan: "enterprise",
    name: "PETSTORE_ADMIN_KEY",
    admin: true,
    limits: null,
    createdAt: new Date(now()).toISOString(),
    revokedAt: null,
    lastUsedAt: null,
  };
}

/**
 * First start without PETSTORE_ADMIN_KEY: create an admin key, store its hash, and show the
 * secret once on stderr. Later starts find the stored admin key and print nothing.
 */
export async function ensureAdminKey(keys: KeyStore, logger: ServerLogger, now: () => number): Promise<void> {
  if (await keys.hasAdminKey()) return;
  const secret = generateApiKey();
  await keys.create({
    id: generateKeyId(),
    hash: hashApiKey(secret),
    prefix: displayPrefix(secret),
    plan: "enterprise",
    name: "bootstrap admin",
    admin: true,
    limits: null,
    createdAt: new Date(now()).toISOString(),
    revokedAt: null,
    lastUsedAt: null,
  });
  logger.info(`Created an admin API key; it is shown only this once:\n  ${secret}`);
  logger.info(`Use it with: export PETSTORE_API_KEY=${secret}  (or: petstore config set api-key -)`);
}
