// Standard Webhooks 1.0 signing (https://www.standardwebhooks.com/), shared by whatever sends a
// webhook: the server's deliveries and `petstore events --forward-to`. Only node:crypto, so a
// sender loads nothing else; receivers verify with any Standard Webhooks library.
import { createHmac, createSecretKey, type KeyObject } from "node:crypto";

/** How a symmetric signing secret is shown to people: `whsec_` + base64 of its bytes. */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** The bytes of a secret we make. */
export const WEBHOOK_SECRET_BYTES = 32;
/** The spec asks for at least 24 random bytes, at most 64 (512 bits). */
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/** The three headers of a signed delivery, lower-case as HTTP/2 and undici want them. */
export interface WebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export interface WebhookMessage {
  /** Stable across the retries of one message, so a receiver can drop duplicates; no `.` in it. */
  id: string;
  /** When this attempt is made, in Unix seconds (a receiver refuses one far from its clock). */
  timestamp: number;
  /** The exact body sent: the signature covers these characters, not a re-serialisation. */
  body: string;
  /** `whsec_...` secrets; each signs, so during a rotation a receiver holding either one accepts. */
  secrets: readonly string[];
}

/**
 * A new signing secret made of `randomBytes(32)`.
 * @example newWebhookSecret(crypto.randomBytes) // "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw..."
 */
export function newWebhookSecret(randomBytes: (size: number) => Uint8Array): string {
  const bytes = randomBytes(WEBHOOK_SECRET_BYTES);
  if (bytes.byteLength !== WEBHOOK_SECRET_BYTES) throw new Error(`randomBytes gave ${bytes.byteLength} bytes, not ${WEBHOOK_SECRET_BYTES}`);
  return `${WEBHOOK_SECRET_PREFIX}${Buffer.from(bytes).toString("base64")}`;
}

/** What is wrong with `text` as a signing secret, or undefined when it is one; never quotes the secret. */
export function webhookSecretProblem(text: string): string | undefined {
  if (!text.startsWith(WEBHOOK_SECRET_PREFIX)) return `a signing secret starts with ${WEBHOOK_SECRET_PREFIX}`;
  const encoded = text.slice(WEBHOOK_SECRET_PREFIX.length);
  // Canonical base64 only: what receivers' libraries decode is then exactly what we sign with.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0 || Buffer.from(encoded, "base64").toString("base64") !== encoded) {
    return `after ${WEBHOOK_SECRET_PREFIX}, a signing secret is standard base64 (A-Z, a-z, 0-9, +, /, = padding)`;
  }
  const size = Buffer.from(encoded, "base64").byteLength;
  if (size < MIN_SECRET_BYTES || size > MAX_SECRET_BYTES) return `a signing secret holds ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes, not ${size}`;
  return undefined;
}

/**
 * The headers that sign `body` as message `id` at `timestamp`: one `v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">` per secret, space-separated.
 */
export function signWebhook(message: WebhookMessage): WebhookHeaders {
  const { id, timestamp, body, secrets } = message;
  // A `.` in the id or timestamp would let one signed content read as another.
  if (!/^[\x21-\x2d\x2f-\x7e]+$/.test(id)) throw new Error("a webhook id is printable ASCII without spaces or dots");
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new Error("a webhook timestamp is whole seconds since 1970");
  if (secrets.length === 0) throw new Error("a webhook is signed with at least one secret");
  const content = `${id}.${timestamp}.${body}`;
  const signatures = secrets.map((secret) => `v1,${createHmac("sha256", keyOf(secret)).update(content, "utf8").digest("base64")}`);
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signatures.join(" ") };
}

/**
 * Checked and decoded secrets, as key objects (an HMAC over a Buffer key makes one each time): a
 * sender signs thousands of deliveries a second with a handful of them.
 */
const keys = new Map<string, KeyObject>();
const KEYS_KEPT = 1024;

function keyOf(secret: string): KeyObject {
  const known = keys.get(secret);
  if (known) return known;
  const problem = webhookSecretProblem(secret);
  if (problem !== undefined) throw new Error(problem);
  const key = createSecretKey(Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), "base64"));
  if (keys.size >= KEYS_KEPT) keys.clear();
  keys.set(secret, key);
  return key;
}
