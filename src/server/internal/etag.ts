import { hash } from "node:crypto";
import { ApiHttpError } from "../errors.js";
import { uncodedEtag } from "./compression.js";
import type { StoredOrder } from "../../store/order-store.js";
import type { StoredPet } from "../../store/pet-store.js";

/**
 * Strong entity tags (RFC 9110 8.8.3). A pet's is `"pet-<id>-<revision>"`: ids are never reused
 * and the revision grows with every update, so the tag changes whenever the pet does and never
 * comes back. An order's is built the same way.
 */
export function petEtag({ pet, revision }: StoredPet): string {
  return `"pet-${pet.id}-${revision}"`;
}

/** An order's, built as a pet's is: `"order-<id>-<revision>"`. */
export function orderEtag({ order, revision }: StoredOrder): string {
  return `"order-${order.id}-${revision}"`;
}

/**
 * The tag of a page, from what determines its bytes: each pet's id and revision (ids are never
 * reused and a revision grows with every change, so they name the content exactly) and the cursor
 * of the next page, if one follows; the rest of the Link comes from the request URL, which
 * the tag goes with.
 * Digesting these rather than the serialised page keeps a 304 from serialising the page at all.
 */
export function pageEtag(page: { pets: readonly { id: number }[]; revisions: readonly number[] }, nextCursor: string | null): string {
  let text = nextCursor === null ? "" : `next ${nextCursor}`;
  for (let i = 0; i < page.pets.length; i++) text += `,${page.pets[i]!.id}.${page.revisions[i]}`;
  // One-shot hash: this runs on every listing, and a Hash object costs about three times as much.
  const digest = hash("sha256", text, "base64url");
  return `"page-${digest.slice(0, 32)}"`;
}

/** `*` or the entity tags listed in an If-Match / If-None-Match header (RFC 9110 13.1.1 and 13.1.2). */
export function entityTags(header: string): "*" | string[] {
  if (header.trim() === "*") return "*";
  return header.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/** If-None-Match (its length already bounded by its parameter) uses the weak comparison: `W/"x"` matches `"x"`. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = entityTags(header);
  return tags === "*" || tags.some((tag) => uncodedEtag(tag.replace(/^W\//, "")) === etag);
}

/**
 * If-None-Match on a change (RFC 9110 13.1.2): the condition fails, a 412, when the resource
 * exists and the header is `*` or names its current tag. `current` is undefined when there is none.
 */
export function noneMatchFails(header: string | null, current: string | undefined): boolean {
  return header !== null && current !== undefined && noneMatchHits(header, current);
}

/** The 412 of a failed If-None-Match: the thing exists (`*`) or is the version the client named. */
export function noneMatchFailed(what: string, header: string): ApiHttpError {
  const why = header.trim() === "*" ? "exists (If-None-Match: *)" : "is the version named in If-None-Match";
  return new ApiHttpError("precondition_failed", `${what} ${why}: nothing was changed`);
}

/**
 * The revisions of pet `id` that an If-Match header accepts, by the strong comparison (a weak tag
 * never matches): undefined for no header or `*` (any current pet), [] when no tag can match.
 */
export function ifMatchRevisions(header: string | undefined, id: number, kind: "pet" | "order" = "pet"): number[] | undefined {
  if (header === undefined) return undefined;
  const tags = entityTags(header);
  if (tags === "*") return undefined;
  const revisions: number[] = [];
  for (const tag of tags) {
    // The tag of a compressed answer names the same revision (compression.ts).
    const match = /^"(pet|order)-(\d+)-(\d+)"$/.exec(uncodedEtag(tag));
    if (match && match[1] === kind && Number(match[2]) === id) revisions.push(Number(match[3]));
  }
  return revisions;
}
