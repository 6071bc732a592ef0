import type { KeyLimits } from "../../contract/values.js";
import type { RateLimiter } from "../../limits/rate-limiter.js";
import type { KeyRecord, KeyStore } from "../../store/key-store.js";
import { keyRefusal } from "../keys/key-validity.js";

export interface StreamCredentialDeps {
  keys: KeyStore;
  limiter: RateLimiter;
  limitsOf: (key: KeyRecord) => KeyLimits;
  environmentAdmin?: KeyRecord;
  now: () => number;
}

/** Whether the credential a stream was opened with has stopped working; see streamCredentialCheck. */
export type CredentialEnded = (key: KeyRecord, hash: string) => Promise<boolean>;

/**
 * What the fan-out asks for each open stream's credential, every revocation interval: the key as
 * stored now, found by the hash of the secret the stream was opened with (the header's, or the
 * one its ticket was asked with). Looked up again, not remembered, so a change made through any
 * instance counts: revoked, expired, rotated (its grace over, or none), and banned (a ban refuses
 * the key everything for its duration, an open stream included).
 */
export function streamCredentialCheck(deps: StreamCredentialDeps): CredentialEnded {
  return async (key, hash) => {
    if (key !== deps.environmentAdmin) {
      const found = await deps.keys.findByHash(hash);
      if (found?.id !== key.id || keyRefusal(found, hash, deps.now()) !== undefined) return true;
    }
    const usage = await deps.limiter.peek(`key:${key.id}`, deps.limitsOf(key));
    return usage.bannedUntil !== null && usage.bannedUntil > deps.now();
  };
}
