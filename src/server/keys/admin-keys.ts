import { LOCAL_BASE_URL } from "../../contract/constants.js";
import { UNSCOPED_KEY_SCOPES } from "../../contract/scopes.js";
import type { KeyRecord, KeyStore } from "../../store/key-store.js";
import type { ServerLogger } from "../request-log.js";
import { issueKey, keyRecordFor } from "./issue-key.js";

const ADMIN = { plan: "enterprise", admin: true, scopes: UNSCOPED_KEY_SCOPES, limits: null } as const;

/** PETSTORE_ADMIN_KEY as a key record: valid while the variable is set, never stored. */
export function environmentAdminKey(secret: string, now: () => number): KeyRecord {
  return keyRecordFor(secret, { ...ADMIN, name: "PETSTORE_ADMIN_KEY" }, now, "key_environment_admin");
}

/**
 * First start without PETSTORE_ADMIN_KEY, once listening: create an admin key, store its hash, and
 * show the secret once on stderr with how to use it (and the base URL, when the client would not
 * find the server by default). Later starts find the stored admin key and print nothing.
 */
export async function ensureAdminKey(keys: KeyStore, logger: ServerLogger, now: () => number, baseUrl: string): Promise<void> {
  if (await keys.hasAdminKey()) return;
  const { secret, record } = issueKey({ ...ADMIN, name: "bootstrap admin" }, now);
  // Another instance on the same database may have created one in the meantime: print nothing then.
  if (!(await keys.createFirstAdmin(record))) return;
  logger.info(`Created an admin API key; it is shown only this once:\n  ${secret}`);
  logger.info(`Use it with: export PETSTORE_API_KEY=${secret}  (or: petstore config set api-key -)`);
  if (baseUrl !== LOCAL_BASE_URL) logger.info(`and point the client at this server: export PETSTORE_BASE_URL=${baseUrl}`);
}
