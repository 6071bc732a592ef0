import { hash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 40 base62 characters: about 238 bits, well over the 128 required. */
const SECRET_LENGTH = 40;
const PREFIX_LENGTH = 6;

export type RandomBytes = (size: number) => Buffer;

/** Uniform base62 from random bytes: bytes >= 248 (4 * 62) are dropped to avoid modulo bias. */
function randomBase62(length: number, random: RandomBytes = randomBytes): string {
  let out = "";
  while (out.length < length) {
    for (const byte of random(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new API key: `ps_` and 40 base62 characters. */
export function generateApiKey(random?: RandomBytes): string {
  return `ps_${randomBase62(SECRET_LENGTH, random)}`;
}

export function generateKeyId(random?: RandomBytes): string {
  return `key_${randomBase62(16, random)}`;
}

/** The only form in which a key is stored or compared: SHA-256, hex. */
export function hashApiKey(key: string): string {
  // The one-shot form: a third of createHash's cost, and this runs on every request.
  return hash("sha256", key, "hex");
}

/** A short, non-secret label for listings: `ps_` and the first six characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, 3 + PREFIX_LENGTH);
}

/** Key-shaped text: `ps_` and 8 or more key characters, whole or cut short. */
const KEY_SHAPED = /ps_[0-9A-Za-z_]{8,}/g;
/** An event-stream ticket (src/server/events/event-tickets.ts), sent in the stream's URL. */
const TICKET_SHAPED = /evt_key_[0-9A-Za-z_]{8,}[.0-9A-Za-z_-]*/g;
/** A run of URL characters with at least one percent-escape: what a server would decode. */
const ESCAPED_RUN = /[0-9A-Za-z_.~%-]*%[0-9A-Fa-f]{2}[0-9A-Za-z_.~%-]*/g;

/**
 * Masks anything shaped like an API key or a ticket, e.g. a secret pasted into a URL or a body
 * by mistake, before it reaches a log line or an error body; also when percent-escaped
 * (`ps%5F...`), as the server would read it.
 * @example redactSecrets("GET /v1/pets?key=ps_AbC…") === "GET /v1/pets?key=ps_[redacted]"
 */
export function redactSecrets(text: string): string {
  const masked = maskPlain(text);
  return masked.includes("%") ? masked.replace(ESCAPED_RUN, maskEscaped) : masked;
}

/** Whether `text` holds something shaped like an API key or a ticket. */
export function looksLikeSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}

function maskPlain(text: string): string {
  return text.replace(KEY_SHAPED, "ps_[redacted]").replace(TICKET_SHAPED, "evt_[redacted]");
}

/**
 * The run decoded (as often as it still has escapes, up to three times) and masked; given back
 * escaped again, so that a decoded newline or quote never reaches a log line.
 */
function maskEscaped(run: string): string {
  let decoded = run;
  for (let round = 0; round < 3 && /%[0-9A-Fa-f]{2}/.test(decoded); round++) {
    decoded = decoded.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  const masked = maskPlain(decoded);
  if (masked === decoded) return run;
  return masked.replace(/[^0-9A-Za-z_.~[\]-]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}
