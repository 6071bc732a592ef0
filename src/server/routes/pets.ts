import type { H3Event } from "h3";
import type { MaybePromise } from "../../support/maybe-async.js";
import { checkedNewPet } from "../../contract/checked-input.js";
import { NewPetSchema, PetPatchSchema } from "../../contract/schemas.js";
import { describeIssue } from "../../contract/validation.js";
import {
  API_PREFIX,
  DEFAULT_PET_STATUS,
  isPetStatus,
  PET_STATUSES,
  type PetStatus,
} from "../../contract/constants.js";
import { MERGE_PATCH_MEDIA_TYPES, queryParameters } from "../../contract/routes.js";
import type { Pet } from "../../contract/schemas.js";
import type { OrderStore } from "../../store/order-store.js";
import type { ChangeOptions, PetPatch, PetStore, SharedListingVersion } from "../../store/pet-store.js";
import { ApiHttpError, invalidBody, invalidParameter, notFound } from "../errors.js";
import type { IdempotentCreates } from "../idempotency/idempotent-creates.js";
import { decodeCursor, encodeCursor } from "../internal/cursor.js";
import { linkBase } from "../internal/public-url.js";
import { ifMatchRevisions, noneMatchFailed, noneMatchFails, noneMatchHits, pageEtag, petEtag } from "../internal/etag.js";
import { readJsonBody } from "../internal/json-body.js";
import { JsonText } from "../internal/json-text.js";
import { NotModified } from "../internal/not-modified.js";
import type { PageCache } from "../internal/page-cache.js";
import type { HeaderList } from "../../limits/headers.js";
import { parseLimit } from "../internal/pagination.js";
import { parsePositiveInteger, readQuery, safeEcho } from "../internal/query.js";
import { requestHeader } from "../internal/request-header.js";

const LIST_PARAMETERS = queryParameters("listPets") as Array<"limit" | "status" | "categoryId" | "cursor">;

/** A listing as it is sent: its body, its ETag, and the Link to the next page when there is one. */
export interface PetPageAnswer {
  text: string;
  etag: string;
  headers: HeaderList;
}

/**
 * listPets: GET /v1/pets, a page ordered by id; `Link: rel="next"` when more follow. Its ETag is
 * a digest of the page, so a poller's If-None-Match gets 304 without a body while nothing changed.
 *
 * Where the store says when its pets change (the file engine), the finished answer is kept per
 * URL until they do: a repeated listing is then a lookup, with no query parsing, no paging, no
 * digest and no serialising (what made scenario 1's request path cost more than fastify's).
 * Over PostgreSQL with a shared Redis, `shared` says it instead (see RedisListingVersion).
 */
export function listPets(
  event: H3Event,
  pets: PetStore,
  pages?: PageCache<PetPageAnswer>,
  shared?: SharedListingVersion,
): MaybePromise<JsonText | NotModified> {
  const version = pages === undefined ? undefined : shared ? shared.version() : pets.listingVersion?.();
  // href, not origin: srvx's URL builds it from the request line without parsing a URL.
  const key = version === undefined ? undefined : event.url.href;
  const kept = key === undefined ? undefined : pages?.get(key, version!);
  // A kept page answers at once; only a page read from the store is awaited.
  if (kept !== undefined) return pageAnswer(event, kept);
  return readPage(event, pets).then((answer) => {
    if (key !== undefined) pages?.set(key, version!, answer);
    return pageAnswer(event, answer);
  });
}

function pageAnswer(event: H3Event, answer: PetPageAnswer): JsonText | NotModified {
  if (noneMatchHits(requestHeader(event, "if-none-match"), answer.etag)) return new NotModified(answer.etag);
  return new JsonText(answer.text, answer.headers);
}

async function readPage(event: H3Event, pets: PetStore): Promise<PetPageAnswer> {
  const query = readQuery(event.url, LIST_PARAMETERS);
  const limit = parseLimit(query.limit);
  const status = parseStatus(query.status);
  const categoryId = parseCategoryId(query.categoryId);
  const afterId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && afterId === undefined) {
    throw invalidParameter("cursor", "is not a cursor this server issued; follow the Link header of the previous page");
  }
  const page = await pets.list({ status, categoryId, afterId, limit });
  const last = page.pets.at(-1);
  const nextAfter = page.hasMore && last ? last.id : null;
  const etag = pageEtag(page, nextAfter);
  const headers: HeaderList = [["etag", etag]];
  if (nextAfter !== null) {
    const next = nextPageUrl(linkBase(event) + event.url.pathname, { limit: query.limit, status, categoryId: query.categoryId }, encodeCursor(nextAfter));
    headers.push(["link", `<${next}>; rel="next"`]);
  }
  return { text: JSON.stringify(page.pets), etag, headers };
}

/** createPet: POST /v1/pets; 201 only once the pet is on disk. Idempotent with an Idempotency-Key. */
export async function createPet(event: H3Event, pets: PetStore, creates: IdempotentCreates): Promise<Pet> {
  const body = await readJsonBody(event);
  const parsed = NewPetSchema.safeParse(body);
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const input = checkedNewPet({ ...parsed.data, status: parsed.data.status ?? DEFAULT_PET_STATUS });
  return creates.run<Pet, Pet>(
    event,
    body,
    (options) => pets.create(input, options),
    (pet) => ({
      status: 201,
      headers: { location: `${API_PREFIX}/pets/${pet.id}`, etag: petEtag({ pet, revision: 1 }) },
      body: pet,
    }),
  );
}

/** getPet: GET /v1/pets/{petId} (deprecated; the guard adds Deprecation and Sunset). */
export async function getPet(event: H3Event, pets: PetStore): Promise<Pet | NotModified> {
  const id = petIdOf(event);
  const stored = await pets.get(id);
  if (!stored) throw notFound(`no pet with id ${id}`);
  return notModifiedOr(event, petEtag(stored), stored.pet);
}

/** updatePet: PATCH /v1/pets/{petId}, a JSON Merge Patch of name, categoryId and status. */
export async function updatePet(event: H3Event, pets: PetStore): Promise<Pet> {
  const id = petIdOf(event);
  const patch = parsePatch(await readJsonBody(event, MERGE_PATCH_MEDIA_TYPES));
  const result = await pets.update(id, patch, await conditionOf(event, id, pets));
  if (result.outcome === "not_found") throw notFound(`no pet with id ${id}`);
  if (result.outcome === "precondition_failed") throw preconditionFailed(id);
  if (result.outcome === "has_open_order") throw hasOpenOrder(id, result.orderId, "change its status");
  event.res.headers.set("etag", petEtag(result.stored));
  return result.stored.pet;
}

/** deletePet: DELETE /v1/pets/{petId}; 204, 404 when unknown or already deleted, 409 while an order holds it. */
export async function deletePet(event: H3Event, pets: PetStore, orders: OrderStore): Promise<null> {
  const id = petIdOf(event);
  const outcome = await pets.delete(id, await conditionOf(event, id, pets));
  if (outcome === "not_found") throw notFound(`no pet with id ${id}`);
  if (outcome === "precondition_failed") throw preconditionFailed(id);
  if (outcome === "has_open_order") throw hasOpenOrder(id, await orders.openOrderOf(id), "delete it");
  event.res.status = 204;
  return null;
}

/** The body with its ETag, or a 304 without one when If-None-Match names that ETag. */
function notModifiedOr<T>(event: H3Event, etag: string, body: T): T | NotModified {
  if (noneMatchHits(event.req.headers.get("if-none-match"), etag)) return new NotModified(etag);
  event.res.headers.set("etag", etag);
  return body;
}

/**
 * If-Match as a revision the store checks in the same step as the change. Several tags are
 * narrowed to the current revision when it is among them; the store still checks it, so a change
 * in between still fails. Revision 0 is never current: no tag of this pet, then no change.
 */
async function conditionOf(event: H3Event, id: number, pets: PetStore): Promise<ChangeOptions> {
  const noneMatch = event.req.headers.get("if-none-match");
  const stored = noneMatch === null ? undefined : await pets.get(id);
  if (stored && noneMatchFails(noneMatch, petEtag(stored))) throw noneMatchFailed(`pet ${id}`, noneMatch!);
  const revisions = ifMatchRevisions(event.req.headers.get("if-match"), id);
  if (revisions === undefined) return {};
  if (revisions.length <= 1) return { ifRevision: revisions[0] ?? 0 };
  const current = await pets.get(id);
  return { ifRevision: current && revisions.includes(current.revision) ? current.revision : 0 };
}

const preconditionFailed = (id: number) =>
  new ApiHttpError("precondition_failed", `pet ${id} has changed since the ETag in If-Match: nothing was changed; read it again`);

/** The order is named so that the caller knows which one to deliver or cancel first. */
const hasOpenOrder = (id: number, orderId: number | undefined, what: string) =>
  new ApiHttpError(
    "pet_has_open_order",
    `pet ${id} has an open order${orderId === undefined ? "" : ` (order ${orderId})`}: deliver or cancel it before you ${what}`,
  );

function petIdOf(event: H3Event): number {
  const raw = event.context.params?.petId ?? "";
  const id = parsePositiveInteger(raw);
  if (id === undefined) throw invalidParameter("petId", `must be a positive integer, got "${safeEcho(raw)}"`);
  return id;
}

/** A merge patch's null removes a field (RFC 7396), and a pet has no field it can do without. */
function parsePatch(body: unknown): PetPatch {
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    for (const field of ["name", "categoryId", "status"]) {
      if ((body as Record<string, unknown>)[field] === null) {
        throw invalidBody(`${field}: cannot be null (a merge patch's null removes a field, and a pet always has one)`);
      }
    }
  }
  const parsed = PetPatchSchema.safeParse(body);
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  if (Object.keys(parsed.data).length === 0) throw invalidBody("nothing to update: send at least one of name, categoryId, status");
  return parsed.data;
}

function parseCategoryId(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const categoryId = parsePositiveInteger(raw);
  if (categoryId === undefined) throw invalidParameter("categoryId", `must be a positive integer, got "${safeEcho(raw)}"`);
  return categoryId;
}

function parseStatus(raw: string | undefined): PetStatus | undefined {
  if (raw === undefined) return undefined;
  if (!isPetStatus(raw)) {
    throw invalidParameter("status", `must be one of ${PET_STATUSES.join(", ")}, got "${safeEcho(raw)}"`);
  }
  return raw;
}

/**
 * The same query with the next cursor. Built as a string from the validated values (digits, a
 * status, base64url), which need no escaping: a URL object here cost 7% of a listing's CPU.
 */
function nextPageUrl(current: string, query: { limit?: string; status?: PetStatus; categoryId?: string }, cursor: string): string {
  const limit = query.limit === undefined ? "" : `limit=${query.limit}&`;
  const status = query.status === undefined ? "" : `status=${query.status}&`;
  const category = query.categoryId === undefined ? "" : `categoryId=${query.categoryId}&`;
  return `${current}?${limit}${status}${category}cursor=${cursor}`;
}
