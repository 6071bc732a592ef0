// What both peers share with petstore's scenario 1: the same 1,000 pets in memory, the same
// load key (its SHA-256 in a map, as petstore stores keys), the same `?limit=20` page.
import { createHash } from "node:crypto";
import { makePets, SECRETS } from "../lib/seed.mjs";

export const PETS = makePets(1_000);
export const KEYS = new Map([[sha256(SECRETS.load), { id: "key_benchload" }]]);
/** High enough that the load never meets it: the peers count, as petstore does, but never refuse. */
export const LIMIT_PER_MINUTE = 1_000_000_000;

export function sha256(text) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The key record for an `Authorization: Bearer <key>` header, or undefined. */
export function keyOf(authorization) {
  const match = /^Bearer +(\S+)$/i.exec(authorization ?? "");
  return match ? KEYS.get(sha256(match[1])) : undefined;
}

/** The first `limit` pets (1..100, default 20), as petstore's first page. */
export function page(limitParameter) {
  const limit = Math.min(100, Math.max(1, Number.parseInt(limitParameter ?? "20", 10) || 20));
  return PETS.slice(0, limit);
}

export function announce(port, close) {
  console.log(`listening on ${port}`);
  process.once("SIGTERM", () => close().then(() => process.exit(0)));
}
