import type { KeyRecord } from "../../store/key-store.js";

/**
 * Why a stored key found by the hash of the presented secret may not be used now, or undefined
 * when it may. The message says which end it reached and when, so the caller knows whether to
 * ask for a new key (expired, revoked) or switch to the rotated secret.
 */
export function keyRefusal(key: KeyRecord, hash: string, now: number): string | undefined {
  if (key.revokedAt !== null) return "the API key has been revoked";
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return `the API key expired at ${key.expiresAt}`;
  // Found by its previous hash: the secret was replaced by a rotation.
  if (key.hash !== hash && key.previousHashUntil && Date.parse(key.previousHashUntil) <= now) {
    return `the API key was rotated at ${key.rotatedAt ?? "?"}; the old secret stopped working at ${key.previousHashUntil}: use the new one`;
  }
  return undefined;
}
