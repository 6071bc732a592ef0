// A keep-alive connection sends the same key with every request: its hash is kept with the
// connection for as long as that stays open, never beyond (a WeakMap entry goes with its socket),
// sparing a SHA-256 per request, a visible share of a listing's CPU in a profile.
import { hashApiKey } from "./secrets.js";

const kept = new WeakMap<object, { token: string; hash: string }>();

/**
 * The SHA-256 of `token` as hashApiKey gives it; `connection` (the request's socket) remembers
 * the last one. Without a connection (app.fetch in tests) it is computed each time.
 */
export function hashOnConnection(token: string, connection: object | undefined): string {
  if (connection === undefined) return hashApiKey(token);
  const last = kept.get(connection);
  if (last !== undefined && last.token === token) return last.hash;
  const hash = hashApiKey(token);
  kept.set(connection, { token, hash });
  return hash;
}
