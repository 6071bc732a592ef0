import type { NewPet } from "./schemas.js";

// Inputs that already passed their schema in this process: the routes parse a request body once
// and the stores would otherwise parse the same object again before writing it (a create was
// once validated two or three times). A WeakSet rather than a flag on the object: nothing
// outside can forge it, it is never serialised, and it goes with the object.
const checked = new WeakSet<object>();

/** Marks a createPet input (status defaulted) the route built from a body its schema accepted. */
export function checkedNewPet(input: Required<NewPet>): Required<NewPet> {
  checked.add(input);
  return input;
}

/** True for an input marked by checkedNewPet: a store need not parse it again. */
export function wasChecked(input: object): boolean {
  return checked.has(input);
}
