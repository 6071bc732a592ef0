// The Pets tag's handlers (the operations of src/contract/operations/pets.ts).
import type { H3Event } from "h3";
import type { MaybePromise } from "../../support/maybe-async.js";
import { checkedNewPet } from "../../contract/checked-input.js";
import type { PET_ROUTES } from "../../contract/operations/pets.js";
import { NewPetSchema, PetPatchSchema } from "../../contract/schemas.js";
import { describeIssue } from "../../contract/validation.js";
import { encodePetCursor } from "../../contract/cursor.js";
import { DEFAULT_PET_SORT, foldName, type PetSort } from "../../contract/name-search.js";
import { API_PREFIX, DEFAULT_PET_STATUS, LIST_LIMIT_DEFAULT } from "../../contract/constants.js";
import { MERGE_PATCH_MEDIA_TYPES, type InputOf, type Route } from "../../contract/routes.js";
import type { Pet } from "../../contract/schemas.js";
import type { OrderStore } from "../../store/order-store.js";
import type { ChangeOptions, PetPatch, PetStore, SharedListingVersion } from "../../store/pet-store.js";
import { ApiHttpError, invalidBody, invalidParameter, notFound } from "../errors.js";
import type { IdempotentCreates } from "../idempotency/idempotent-creates.js";
import { linkBase } from "../internal/public-url.js";
import { ifMatchRevisions, noneMatchFailed, noneMatchFails, noneMatchHits, pageEtag, petEtag } from "../internal/etag.js";
import { readJsonBody } from "../internal/json-body.js";
import { JsonText } from "../internal/json-text.js";
import { nextPageLink } from "../internal/next-page.js";
import { NotModified } from "../internal/not-modified.js";
import { PageCache } from "../internal/page-cache.js";
import type { HeaderList } from "../../limits/headers.js";
import type { HandlersFor, KeptFirst } from "./register.js";

export interface PetRoutesDeps {
  pets: PetStore;
  orders: OrderStore;
  creates: IdempotentCreates;
  /** Over PostgreSQL with a shared Redis: when a kept listing is still right (see RedisListingVersion). */
  listings?: SharedListingVersion;
}

/** The handler of each operation of the Pets tag. */
export function petHandlers(deps: PetRoutesDeps): HandlersFor<(typeof PET_ROUTES)[number]> {
  const { pets, orders, creates } = deps;
  return {
    listPets: listPets(pets, new PageCache<PetPageAnswer>(), deps.listings),
    createPet: (event, input) => createPet(event, input, pets, creates),
    getPet: (event, input) => getPet(event, input, pets),
    updatePet: (event, input) => updatePet(event, input, pets),
    deletePet: (event, input) => deletePet(event, input, pets, orders),
  };
}

/** A listing as it is sent: its body, its ETag, and the Link to the next page when there is one. */
export interface PetPageAnswer {
  text: string;
  etag: string;
  headers: HeaderList;
}

/**
 * listPets: GET /v1/pets, a page ordered by id or name; `Link: rel="next"` when more follow. Its ETag is
 * a digest of the page, so a poller's If-None-Match gets 304 without a body while nothing changed.
 *
 * Where the store says when its pets change (the file engine), the finished answer is kept per
 * URL until they do: a repeated listing is then a lookup, with no query parsing, no paging, no
 * digest and no serialising. Over PostgreSQL with a shared Redis, `shared` says it instead (see
 * RedisListingVersion).
 */
function listPets(pets: PetStore, pages: PageCache<PetPageAnswer>, shared?: SharedListingVersion): KeptFirst<Route<"listPets">> {
  const version = () => (shared ? shared.version() : pets.listingVersion?.());
  return {
    kept: (event, headers) => {
      const at = version();
      // href, not origin: srvx's URL builds it from the request line without parsing a URL.
      const kept = at === undefined ? undefined : pages.get(event.url.href, at);
      return kept === undefined ? undefined : pageAnswer(kept, headers["If-None-Match"]);
    },
    // Only a page read from the store is awaited; the version is taken before the read, so a
    // change made meanwhile leaves the page kept under a version already past.
    handle: (event, { query, headers }): MaybePromise<JsonText | NotModified> => {
      const at = version();
      return readPage(event, query, pets).then((answer) => {
        if (at !== undefined) pages.set(event.url.href, at, answer);
        return pageAnswer(answer, headers["If-None-Match"]);
      });
    },
  };
}

function pageAnswer(answer: PetPageAnswer, ifNoneMatch: string | undefined): JsonText | NotModified {
  if (noneMatchHits(ifNoneMatch, answer.etag)) return new NotModified(answer.etag);
  return new JsonText(answer.text, answer.headers);
}

async function readPage(event: H3Event, query: InputOf<Route<"listPets">>["query"], pets: PetStore): Promise<PetPageAnswer> {
  const { limit, status, categoryId, q, sort, cursor } = query;
  const order = sort ?? DEFAULT_PET_SORT;
  if (cursor !== undefined && cursor.sort !== order) throw cursorOfAnotherOrder(cursor.sort, order);
  const { afterId, afterName } = cursor ?? {};
  const page = await pets.list({ status, categoryId, search: q, sort: order, afterId, afterName, limit: limit ?? LIST_LIMIT_DEFAULT });
  const last = page.pets.at(-1);
  const next = page.hasMore && last ? encodePetCursor(order, last.id, foldName(last.name)) : null;
  const etag = pageEtag(page, next);
  const headers: HeaderList = [["etag", etag]];
  if (next !== null) headers.push(["link", nextPageLink(linkBase(event) + event.url.pathname, { limit, status, categoryId, q, sort }, next)]);
  return { text: JSON.stringify(page.pets), etag, headers };
}

/** A cursor holds a place in one order: read in another, it would start the page anywhere. */
const cursorOfAnotherOrder = (made: PetSort, asked: PetSort) =>
  invalidParameter("cursor", `was made for sort=${made}, not sort=${asked}: follow the Link header of the previous page, or start again without a cursor`);

/** createPet: POST /v1/pets; 201 only once the pet is on disk. Idempotent with an Idempotency-Key. */
async function createPet(event: H3Event, { headers }: InputOf<Route<"createPet">>, pets: PetStore, creates: IdempotentCreates): Promise<Pet> {
  const body = await readJsonBody(event);
  const parsed = NewPetSchema.safeParse(body);
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const input = checkedNewPet({ ...parsed.data, status: parsed.data.status ?? DEFAULT_PET_STATUS });
  return creates.run<Pet, Pet>(
    event,
    { key: headers["Idempotency-Key"], body },
    (options) => pets.create(input, options),
    (pet) => ({
      status: 201,
      headers: { location: `${API_PREFIX}/pets/${pet.id}`, etag: petEtag({ pet, revision: 1 }) },
      body: pet,
    }),
  );
}

/** getPet: GET /v1/pets/{petId} (deprecated; the guard adds Deprecation and Sunset). */
async function getPet(event: H3Event, { path, headers }: InputOf<Route<"getPet">>, pets: PetStore): Promise<Pet | NotModified> {
  const stored = await pets.get(path.petId);
  if (!stored) throw notFound(`no pet with id ${path.petId}`);
  return notModifiedOr(event, headers["If-None-Match"], petEtag(stored), stored.pet);
}

/** updatePet: PATCH /v1/pets/{petId}, a JSON Merge Patch of name, categoryId and status. */
async function updatePet(event: H3Event, { path, headers }: InputOf<Route<"updatePet">>, pets: PetStore): Promise<Pet> {
  const id = path.petId;
  const patch = parsePatch(await readJsonBody(event, MERGE_PATCH_MEDIA_TYPES));
  const result = await pets.update(id, patch, await conditionOf(event, headers["If-Match"], id, pets));
  if (result.outcome === "not_found") throw notFound(`no pet with id ${id}`);
  if (result.outcome === "precondition_failed") throw preconditionFailed(id);
  if (result.outcome === "has_open_order") throw hasOpenOrder(id, result.orderId, "change its status");
  event.res.headers.set("etag", petEtag(result.stored));
  return result.stored.pet;
}

/** deletePet: DELETE /v1/pets/{petId}; 204, 404 when unknown or already deleted, 409 while an order holds it. */
async function deletePet(event: H3Event, { path, headers }: InputOf<Route<"deletePet">>, pets: PetStore, orders: OrderStore): Promise<null> {
  const id = path.petId;
  const outcome = await pets.delete(id, await conditionOf(event, headers["If-Match"], id, pets));
  if (outcome === "not_found") throw notFound(`no pet with id ${id}`);
  if (outcome === "precondition_failed") throw preconditionFailed(id);
  if (outcome === "has_open_order") throw hasOpenOrder(id, await orders.openOrderOf(id), "delete it");
  event.res.status = 204;
  return null;
}

/** The body with its ETag, or a 304 without one when If-None-Match names that ETag. */
function notModifiedOr<T>(event: H3Event, ifNoneMatch: string | undefined, etag: string, body: T): T | NotModified {
  if (noneMatchHits(ifNoneMatch, etag)) return new NotModified(etag);
  event.res.headers.set("etag", etag);
  return body;
}

/**
 * If-Match as a revision the store checks in the same step as the change. Several tags are
 * narrowed to the current revision when it is among them; the store still checks it, so a change
 * in between still fails. Revision 0 is never current: no tag of this pet, then no change.
 */
async function conditionOf(event: H3Event, ifMatch: string | undefined, id: number, pets: PetStore): Promise<ChangeOptions> {
  // If-None-Match on a change (RFC 9110 13.1.2): 412 when it names the pet as it is.
  const noneMatch = event.req.headers.get("if-none-match");
  const stored = noneMatch === null ? undefined : await pets.get(id);
  if (stored && noneMatchFails(noneMatch, petEtag(stored))) throw noneMatchFailed(`pet ${id}`, noneMatch!);
  const revisions = ifMatchRevisions(ifMatch, id);
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
