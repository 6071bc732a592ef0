// Every pet matching the filters, a page at a time, for the commands that stream (`pets export`,
// `pets list --all --json`): each page is printed and dropped before the next is asked for, so
// memory stays that of one page however large the store.
import type { PetSort } from "../../contract/name-search.js";
import { LIST_LIMIT_MAX, type Pet, type PetStatus } from "../../contract/values.js";
import type { ApiClient } from "../http.js";
import { petsOf } from "./answer-shape.js";
import { linkWithRel } from "./link-header.js";

export interface PetFilters {
  status?: PetStatus;
  categoryId?: number;
  /** `q`: only pets whose name contains this text. */
  q?: string;
  sort?: PetSort;
}

export async function* petPages(api: ApiClient, filters: PetFilters): AsyncGenerator<Pet[]> {
  const seen = new Set<string>();
  let target: string | undefined = "/pets";
  let query: Record<string, string | number | undefined> | undefined = { ...filters, limit: LIST_LIMIT_MAX };
  while (target !== undefined) {
    const response = await api.request<unknown>("GET", target, { query });
    yield petsOf(response);
    const next = linkWithRel(response.headers.link, "next", response.url);
    if (next !== undefined && seen.has(next)) throw new Error(`the server's next link repeats a page: ${next}`);
    if (next !== undefined) seen.add(next);
    target = next;
    query = undefined;
  }
}
