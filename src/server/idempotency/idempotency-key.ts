import type { H3Event } from "h3";
import { IDEMPOTENCY_KEY_MAX_LENGTH } from "../../contract/limits.js";
import { invalidParameter } from "../errors.js";

const VISIBLE_ASCII = /^[!-~]+$/;

/**
 * The request's Idempotency-Key, or undefined without one. Any value of 1 to 255 visible ASCII
 * characters (a UUID, or the draft's quoted form, taken as sent); anything else is a 400 rather
 * than a create made without the protection the client asked for.
 */
export function readIdempotencyKey(event: H3Event): string | undefined {
  const key = event.req.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw invalidParameter("Idempotency-Key", `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, got ${key.length}`);
  }
  if (!VISIBLE_ASCII.test(key)) throw invalidParameter("Idempotency-Key", "must be 1 or more visible ASCII characters (no spaces)");
  return key;
}
