// The Pets tag: its operations, their parameters and answers. Handlers: src/server/routes/pets.ts.
import { componentRef } from "../components.js";
import { GET_PET_DEPRECATED_AT, GET_PET_SUNSET_HTTP_DATE } from "../constants.js";
import { entityTags, pageLimit, petPageCursor, petSort, positiveId, searchText, statusFilter } from "../parameters.js";
import type { RouteEntry } from "../route-types.js";
import { NewPetSchema, PetPatchSchema, PetSchema, PetsSchema, PetStatusSchema } from "../schemas.js";
import { IDEMPOTENCY_ERRORS, IDEMPOTENCY_KEY, IF_NONE_MATCH, MERGE_PATCH_MEDIA_TYPES } from "./shared.js";

const PET_ID = { petId: positiveId().describe("The pet's id.") };
const IF_MATCH = entityTags().describe(
  "The pet's ETag as you last read it: 412 precondition_failed, changing nothing, when the pet has changed since.",
);

export const PET_ROUTES = [
  {
    operationId: "listPets",
    method: "GET",
    path: "/pets",
    access: "key",
    scope: "pets:read",
    stability: "stable",
    request: {
      query: {
        limit: pageLimit().describe("Maximum number of pets to return."),
        status: statusFilter(PetStatusSchema).describe("Only pets with this status."),
        categoryId: positiveId().describe("Only pets of this category; combines with status."),
        q: searchText().describe(
          "Only pets whose name contains this text, in any case: both are compared NFC-normalised and case-folded, so `ÉMILE` finds `émile` (accents still count). Combines with the other filters.",
        ),
        sort: petSort().describe(
          "The page's order: `id` (the default) or `name` (folded as for `q`, by code point, then by id); a leading `-` reverses.",
        ),
        cursor: petPageCursor().describe(
          "Opaque: take it from the `Link` of the previous page. A cursor goes with the order it was made in (400 invalid_parameter in another).",
        ),
      },
      headers: { "If-None-Match": IF_NONE_MATCH },
    },
    doc: {
      tag: "pets",
      summary: "List pets, a page at a time",
      description:
        "Pets ordered by id (or as `sort` says), filtered by status, category and/or a text in the name (`q`). " +
        "When more follow, `Link` carries the URL of the next page, with the same filters and order; the cursor holds the last pet's place, " +
        "so a pet that exists throughout the walk, keeping what it is filtered and ordered by, comes exactly once while others are added, changed or removed.",
      success: { status: 200, description: "A page of pets.", schema: componentRef(PetsSchema), headers: ["Link-Next", "ETag"], notModified: true },
          },
  },
  {
    operationId: "createPet",
    method: "POST",
    path: "/pets",
    access: "key",
    scope: "pets:write",
    stability: "stable",
    request: { body: NewPetSchema, headers: { "Idempotency-Key": IDEMPOTENCY_KEY } },
    doc: {
      tag: "pets",
      summary: "Add a pet",
      description:
        "Answers 201 only once the pet is on disk. A pet sent without `status` is `available`. " +
        "With an Idempotency-Key, a retry gets the first answer again instead of a second pet.",
      success: {
        status: 201,
        description: "The pet, with the id the service assigned.",
        schema: componentRef(PetSchema),
        headers: ["Location", "ETag", "Idempotent-Replayed"],
      },
      errors: [...IDEMPOTENCY_ERRORS],
    },
  },
  {
    operationId: "getPet",
    method: "GET",
    path: "/pets/{petId}",
    access: "key",
    scope: "pets:read",
    stability: "stable",
    deprecated: {
      since: GET_PET_DEPRECATED_AT,
      sunset: GET_PET_SUNSET_HTTP_DATE,
      successor: "/pets",
      successorText: "GET /pets with the status filter",
    },
    request: { path: PET_ID, headers: { "If-None-Match": IF_NONE_MATCH } },
    doc: {
      tag: "pets",
      summary: "Get a pet by id (deprecated)",
      success: { status: 200, description: "The pet.", schema: componentRef(PetSchema), headers: ["ETag"], notModified: true },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "updatePet",
    method: "PATCH",
    path: "/pets/{petId}",
    access: "key",
    scope: "pets:write",
    stability: "stable",
    request: { path: PET_ID, headers: { "If-Match": IF_MATCH }, body: PetPatchSchema, mediaTypes: MERGE_PATCH_MEDIA_TYPES },
    doc: {
      tag: "pets",
      summary: "Change a pet (JSON Merge Patch)",
      description:
        "RFC 7396: the fields sent replace the pet's, the others stay. Any status may change to any other, " +
        "except while the pet has an open order (409 pet_has_open_order; its name and category may still change). " +
        "A patch that changes nothing answers 200 with the pet as it is: the same ETag, no new revision, no event " +
        "(If-Match still applies). An empty patch {} is refused (400 invalid_body).",
      success: { status: 200, description: "The whole pet, as updated.", schema: componentRef(PetSchema), headers: ["ETag"] },
      errors: ["NotFound", "PreconditionFailed", "PetHasOpenOrder"],
    },
  },
  {
    operationId: "deletePet",
    method: "DELETE",
    path: "/pets/{petId}",
    access: "key",
    scope: "pets:write",
    stability: "stable",
    request: { path: PET_ID, headers: { "If-Match": IF_MATCH } },
    doc: {
      tag: "pets",
      summary: "Delete a pet",
      description: "The pet is gone from every listing and from GET; its id is never given to another pet.",
      success: { status: 204, description: "Deleted." },
      errors: ["NotFound", "PreconditionFailed", "PetHasOpenOrder"],
    },
  },
] as const satisfies readonly RouteEntry[];
