// The shape of what the client prints, checked before it is printed: a server that answers 200
// with an object where a list belongs, or a pet without an id, is reported as an answer that is
// not the API's (exit 1) instead of printing `undefined` or crashing in the table code.
import type { Pet } from "../../contract/values.js";
import { ApiError } from "../errors.js";
import type { ApiResponse } from "../http.js";
import { notThisApiHint } from "./hints.js";

/** The body of a pet answer (get, add, update), checked. */
export function petOf(response: ApiResponse<unknown>): Pet {
  const problem = petProblem(response.body);
  if (problem !== undefined) throw unexpected(response, `is not a pet: ${problem}`);
  return response.body as Pet;
}

/** The body of a page of pets, checked: an array of pets. */
export function petsOf(response: ApiResponse<unknown>): Pet[] {
  if (!Array.isArray(response.body)) throw unexpected(response, `is not a list of pets: ${kindOf(response.body)} where an array belongs`);
  for (const [index, pet] of response.body.entries()) {
    const problem = petProblem(pet);
    if (problem !== undefined) throw unexpected(response, `is not a list of pets: item ${index} ${problem}`);
  }
  return response.body as Pet[];
}

/** What is wrong with a value that should be a Pet, or undefined when nothing is. */
function petProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `${kindOf(value)} where an object belongs`;
  const pet = value as Record<string, unknown>;
  if (!Number.isSafeInteger(pet.id)) return "it has no integer id";
  if (typeof pet.name !== "string") return "it has no name";
  if (!Number.isSafeInteger(pet.categoryId)) return "it has no integer categoryId";
  if (typeof pet.status !== "string") return "it has no status";
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === undefined) return "an empty answer";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function unexpected(response: ApiResponse<unknown>, what: string): ApiError {
  const body = { code: "unexpected_response", message: `the answer from ${response.url} ${what}`, status: response.status };
  return new ApiError(body, notThisApiHint(new URL(response.url).origin));
}
