import { compareFolded, type PetSort } from "../../contract/name-search.js";
import type { Pet } from "../../contract/values.js";
import type { ChunkedList } from "./chunked-list.js";
import type { NameGrams } from "./name-grams.js";

/** What a page is read from: the pets of one filter (a status, a category, both, or none). */
export interface PageSources {
  /** The filter's pets in id order. */
  byId: readonly Pet[];
  /** The ids of the filter's pets in name order; absent when there are none. */
  byName: ChunkedList | undefined;
  grams: NameGrams;
  petOf(id: number): Pet | undefined;
  keyOf(pet: Pet): string;
  inFilter(pet: Pet): boolean;
}

/** Which pets a page holds: the order, where it starts (after the last pet of the previous page), and how many. */
export interface PageWindow {
  sort: PetSort;
  afterId?: number;
  /** With sort=name and -name: the folded name of the pet at afterId. */
  afterName?: string;
  /** The limit and one more, which tells whether more follow. */
  take: number;
}

type Walk<T> = (visit: (item: T) => boolean) => void;

/**
 * The pets of a page, in its order. With a folded `text`, a walk of the filter's own order that
 * checks each name stops after `take` matches: cheap for common texts. It gives up once it has
 * cost as much as the trigram candidates would, which are then read instead: cheap for rare ones.
 * Either way a page costs at most about as many pets as its text's rarest trigram has.
 */
export function findPets(sources: PageSources, window: PageWindow, text?: string): Pet[] {
  const own = ownOrder(sources, window);
  if (text === undefined) return collect(own, every, window.take)!;
  const matches = (pet: Pet) => sources.inFilter(pet) && sources.keyOf(pet).includes(text);
  const lists = sources.grams.candidates(text);
  const candidates = lists.reduce((sum, list) => sum + list.size, 0);
  if (lists.length === 1 && !byName(window) && candidates <= sources.byId.length) {
    return collect(petsOf(idsWalk(lists[0]!, window), sources.petOf), matches, window.take)!;
  }
  return collect(own, matches, window.take, candidates) ?? gather(sources, window, lists, matches);
}

/** The first `take` pets the walk visits that `accepts`; undefined when it visits more than `budget` first. */
function collect(walk: Walk<Pet>, accepts: (pet: Pet) => boolean, take: number, budget = Infinity): Pet[] | undefined {
  const found: Pet[] = [];
  let visits = 0;
  walk((pet) => {
    if (++visits > budget) return false;
    if (accepts(pet)) found.push(pet);
    return found.length < take;
  });
  return visits > budget ? undefined : found;
}

/** The pets of a walk over ids (every id the index lists is held). */
function petsOf(walk: Walk<number>, petOf: (id: number) => Pet | undefined): Walk<Pet> {
  return (visit) => walk((id) => visit(petOf(id)!));
}

/** Every candidate read, checked and sorted: the page of a rare text. */
function gather(sources: PageSources, window: PageWindow, lists: ChunkedList[], matches: (pet: Pet) => boolean): Pet[] {
  const ids = new Set<number>();
  for (const list of lists) list.forward({ chunk: 0, index: 0 }, (id) => (ids.add(id), true));
  const place = placeOf(sources, window);
  const descending = window.sort.startsWith("-");
  const pets: Pet[] = [];
  for (const id of ids) {
    const pet = sources.petOf(id);
    if (pet && matches(pet) && (window.afterId === undefined || (descending ? place(pet) < 0 : place(pet) > 0))) pets.push(pet);
  }
  const order = byName(window) ? (a: Pet, b: Pet) => compareFolded(sources.keyOf(a), sources.keyOf(b)) || a.id - b.id : (a: Pet, b: Pet) => a.id - b.id;
  pets.sort(descending ? (a, b) => order(b, a) : order);
  return pets.slice(0, window.take);
}

/** The filter's pets in the page's order, from its start. */
function ownOrder(sources: PageSources, window: PageWindow): Walk<Pet> {
  const descending = window.sort.startsWith("-");
  if (byName(window)) {
    const list = sources.byName;
    if (!list) return () => undefined;
    const place = placeOf(sources, window);
    const at = (id: number) => place(sources.petOf(id)!);
    return petsOf(chunkWalk(list, window.afterId === undefined ? undefined : descending ? (id) => at(id) < 0 : (id) => at(id) <= 0, descending), sources.petOf);
  }
  const pets = sources.byId;
  const { afterId } = window;
  if (!descending) return (visit) => {
    for (let i = afterId === undefined ? 0 : firstAfter(pets, afterId); i < pets.length; i++) if (!visit(pets[i]!)) return;
  };
  return (visit) => {
    for (let i = (afterId === undefined ? pets.length : firstAfter(pets, afterId - 1)) - 1; i >= 0; i--) if (!visit(pets[i]!)) return;
  };
}

/** A trigram's ids in the page's (id) order, from its start. */
function idsWalk(ids: ChunkedList, window: PageWindow): Walk<number> {
  const { afterId } = window;
  if (!window.sort.startsWith("-")) return chunkWalk(ids, afterId === undefined ? undefined : (id) => id <= afterId, false);
  return chunkWalk(ids, afterId === undefined ? undefined : (id) => id < afterId, true);
}

/** Ascending: from the first item `before` is false for. Descending: from the last item `before` holds for. */
function chunkWalk(list: ChunkedList, before: ((id: number) => boolean) | undefined, descending: boolean): Walk<number> {
  if (!descending) return (visit) => list.forward(before ? list.seek(before) : { chunk: 0, index: 0 }, visit);
  return (visit) => list.backward(list.seek(before ?? (() => true)), visit);
}

/** Where a pet stands against the window's start, in ascending terms: < 0 before it, > 0 after it. */
function placeOf(sources: PageSources, window: PageWindow): (pet: Pet) => number {
  const afterId = window.afterId ?? 0;
  if (!byName(window)) return (pet) => pet.id - afterId;
  const afterName = window.afterName ?? "";
  return (pet) => compareFolded(sources.keyOf(pet), afterName) || pet.id - afterId;
}

const byName = (window: PageWindow) => window.sort === "name" || window.sort === "-name";
const every = () => true;

/** Index of the first pet whose id is greater than `afterId` (pets.length when none is). */
export function firstAfter(pets: readonly { id: number }[], afterId: number): number {
  let low = 0;
  let high = pets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (pets[middle]!.id <= afterId) low = middle + 1;
    else high = middle;
  }
  return low;
}
