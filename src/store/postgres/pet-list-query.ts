// The SELECT of one page of listPets over PostgreSQL, with its statement name where it has one.
import { DEFAULT_PET_SORT, foldName, type PetSort } from "../../contract/name-search.js";
import type { ListPetsQuery } from "../pet-store.js";
import { PET_COLUMNS } from "./rows.js";

export interface ListQuery {
  name?: string;
  text: string;
  values: unknown[];
}

/**
 * The SELECT of a page: each filter combination has its own index in id order ((status, id),
 * (category_id, id), (status, category_id, id), or the primary key) and in name order (the same
 * with name_key before id), so a page reads only pets in its filter, in its order, from its
 * cursor. A text of three characters in id order is read from pet_name_trigrams (migration 12);
 * any other text is `name_key LIKE`, answered from the pg_trgm index of name_key.
 */
export function listQuery(query: ListPetsQuery, fetch: number): ListQuery {
  const sort = query.sort ?? DEFAULT_PET_SORT;
  const folded = query.search === undefined ? undefined : foldName(query.search);
  if (folded !== undefined && isTrigram(folded) && (sort === "id" || sort === "-id")) return trigramQuery(query, folded, sort, fetch);
  const conditions: string[] = [];
  const values: unknown[] = [];
  if (query.status !== undefined) conditions.push(`status = $${values.push(query.status)}`);
  if (query.categoryId !== undefined) conditions.push(`category_id = $${values.push(query.categoryId)}`);
  if (folded !== undefined) conditions.push(`name_key LIKE $${values.push(`%${escapeLike(folded)}%`)}`);
  const position = positionOf(sort, query, values);
  if (position !== undefined) conditions.push(position);
  const limit = `$${values.push(fetch)}`;
  const text = `SELECT ${PET_COLUMNS} FROM pets WHERE ${conditions.join(" AND ") || "true"} ORDER BY ${ORDER[sort]} LIMIT ${limit}`;
  // A named statement is parsed once per connection and then only bound and run: the listing is
  // the busiest query, and its shapes are named by the filters they have. A LIKE text is left
  // unnamed, so that each is planned with its own text: a rare one reads the trigram index, a
  // common one may walk the order it is sorted in.
  if (folded !== undefined) return { text, values };
  return { name: `list-pets-${filtersOf(query)}${shapeOf(sort, position !== undefined)}`, text, values };
}

/**
 * The pets holding `trigram` in their folded name, in id order from the cursor: (trigram, pet_id)
 * read in order, each pet then fetched by id and filtered, until the page is full. OFFSET 0 keeps
 * the pets apart, so no plan (a generic one, or one made before the table's statistics) can merge
 * them in from the first id instead of from the cursor. One named plan for every text: a folded
 * name contains a text of three characters exactly when one of its windows is that text.
 */
function trigramQuery(query: ListPetsQuery, trigram: string, sort: "id" | "-id", fetch: number): ListQuery {
  const values: unknown[] = [trigram];
  const filters = ["id = t.pet_id"];
  if (query.status !== undefined) filters.push(`status = $${values.push(query.status)}`);
  if (query.categoryId !== undefined) filters.push(`category_id = $${values.push(query.categoryId)}`);
  const conditions = ["t.trigram = $1"];
  if (sort === "id") conditions.push(`t.pet_id > $${values.push(query.afterId ?? 0)}`);
  else if (query.afterId !== undefined) conditions.push(`t.pet_id < $${values.push(query.afterId)}`);
  const text =
    `SELECT ${PET_COLUMNS} FROM pet_name_trigrams AS t, LATERAL (SELECT ${PET_COLUMNS} FROM pets WHERE ${filters.join(" AND ")} OFFSET 0) AS p ` +
    `WHERE ${conditions.join(" AND ")} ORDER BY t.pet_id${sort === "id" ? "" : " DESC"} LIMIT $${values.push(fetch)}`;
  return { name: `list-pets-trigram-${filtersOf(query)}${shapeOf(sort, sort === "-id" && query.afterId !== undefined)}`, text, values };
}

/** Three code points: what one row of pet_name_trigrams holds (substr counts characters). */
function isTrigram(folded: string): boolean {
  return folded.length >= 3 && folded.length <= 6 && Array.from(folded).length === 3;
}

const ORDER = { id: "id", "-id": "id DESC", name: "name_key, id", "-name": "name_key DESC, id DESC" } as const;
const SORT_NAMES = { id: "id", "-id": "id-desc", name: "name", "-name": "name-desc" } as const;

const filtersOf = (query: ListPetsQuery) => `${query.status === undefined ? "" : "s"}${query.categoryId === undefined ? "" : "c"}`;
const shapeOf = (sort: PetSort, after: boolean) => (sort === "id" ? "" : `-${SORT_NAMES[sort]}${after ? "-after" : ""}`);

/** The cursor's condition: past (name_key, id) in name order, past the id otherwise. */
function positionOf(sort: PetSort, query: ListPetsQuery, values: unknown[]): string | undefined {
  if (sort === "id") return `id > $${values.push(query.afterId ?? 0)}`;
  if (query.afterId === undefined) return undefined;
  if (sort === "-id") return `id < $${values.push(query.afterId)}`;
  const { afterName, afterId } = placeOf(query.afterName ?? "", query.afterId);
  const key = `$${values.push(afterName)}::text COLLATE "C"`;
  const id = `$${values.push(afterId)}`;
  return sort === "name" ? `(name_key, id) > (${key}, ${id})` : `(name_key, id) < (${key}, ${id})`;
}

const LAST_BIGINT = "9223372036854775807";

/**
 * A name holding U+0000 (a cursor from the file engine, or made up) cannot be sent. No stored name
 * holds one, so a place at "p\0..." has the same names before and after it as one past every id
 * of the name "p": the text before U+0000 with the largest id.
 */
function placeOf(afterName: string, afterId: number): { afterName: string; afterId: number | string } {
  const nul = afterName.indexOf("\0");
  return nul === -1 ? { afterName, afterId } : { afterName: afterName.slice(0, nul), afterId: LAST_BIGINT };
}

/** `text` matched literally by LIKE: its wildcards % and _, and its escape character (backslash), escaped. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}
