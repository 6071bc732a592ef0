// Cursors are opaque to clients: the base64url of the last item's place in the page's order, so
// that the format can change without breaking anyone who only follows Link headers. The server
// writes them into a Link; the `cursor` parameters (parameters.ts) read them back.
//   p<id>            by id (every listing's default order; what servers before sort wrote too)
//   d<id>            by -id
//   n<id>:<name>     by name: the last pet's folded name (name-search.ts) and id
//   r<id>:<name>     by -name
// The order is in the cursor so that a cursor is never read in an order it was not made for.
import { CURSOR_MAX_LENGTH, PET_CURSOR_MAX_LENGTH } from "./limits.js";
import type { PetSort } from "./name-search.js";

/** Where a page starts: after this pet in this order (afterName with name and -name only). */
export interface PagePosition {
  sort: PetSort;
  afterId: number;
  afterName?: string;
}

const MARK: Record<PetSort, string> = { id: "p", "-id": "d", name: "n", "-name": "r" };
const SORT_OF: Record<string, PetSort> = { p: "id", d: "-id", n: "name", r: "-name" };

const CURSOR_TEXT = new RegExp(`^[A-Za-z0-9_-]{1,${CURSOR_MAX_LENGTH}}$`);
const PET_CURSOR_TEXT = new RegExp(`^[A-Za-z0-9_-]{1,${PET_CURSOR_MAX_LENGTH}}$`);
// The id, then the name for name orders: any text but an empty one.
const POSITION = /^([pdnr])([1-9]\d{0,15})(?::(.+))?$/su;

/** The cursor of a page that starts after `lastId` in id order. */
export function encodeCursor(lastId: number): string {
  return Buffer.from(`p${lastId}`, "utf8").toString("base64url");
}

/** The cursor of a page of pets that starts after the pet `lastId` (folded name `lastName`) in `sort` order. */
export function encodePetCursor(sort: PetSort, lastId: number, lastName: string): string {
  const name = sort === "name" || sort === "-name" ? `:${lastName}` : "";
  return Buffer.from(`${MARK[sort]}${lastId}${name}`, "utf8").toString("base64url");
}

/** The id after which the next page starts in id order, or undefined when the cursor is not one of ours for that order. */
export function decodeCursor(cursor: string): number | undefined {
  if (!CURSOR_TEXT.test(cursor)) return undefined;
  const position = positionOf(cursor);
  return position?.sort === "id" ? position.afterId : undefined;
}

/** The place after which the next page of pets starts, or undefined when the cursor is not one of ours. */
export function decodePetCursor(cursor: string): PagePosition | undefined {
  return PET_CURSOR_TEXT.test(cursor) ? positionOf(cursor) : undefined;
}

function positionOf(cursor: string): PagePosition | undefined {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  // Only what encoding gives back the same cursor: bytes that were never UTF-8 decode to U+FFFD.
  if (Buffer.from(text, "utf8").toString("base64url") !== cursor) return undefined;
  const match = POSITION.exec(text);
  const sort = SORT_OF[match?.[1] ?? ""];
  if (!match || sort === undefined) return undefined;
  const afterId = Number(match[2]);
  if (!Number.isSafeInteger(afterId)) return undefined;
  const byName = sort === "name" || sort === "-name";
  if (byName !== (match[3] !== undefined)) return undefined;
  return byName ? { sort, afterId, afterName: match[3] } : { sort, afterId };
}
