import { invalidBody } from "../errors.js";

/**
 * The normalised ISO form of a requested expiry, or null without one. Refuses an instant not in
 * the future: a key that could never be used is a mistake worth telling at once.
 */
export function futureInstant(requested: string | undefined, now: number): string | null {
  if (requested === undefined) return null;
  const at = Date.parse(requested);
  if (!(at > now)) throw invalidBody(`expiresAt: must be in the future (it is ${requested})`);
  return new Date(at).toISOString();
}
