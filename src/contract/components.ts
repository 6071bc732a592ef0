// The document's components.schemas: a schema becomes one by being registered where it is defined,
// so the document lists every registered schema and no list of them is kept anywhere else.
import * as z from "zod";
import type { JsonSchema } from "./route-types.js";

export const COMPONENTS = z.registry<{ id: string }>();

/** Registers `schema` as #/components/schemas/<id>, e.g. `component("Pet", z.object({...}))`. */
export function component<T extends z.ZodType>(id: string, schema: T): T {
  COMPONENTS.add(schema, { id });
  return schema;
}

/** `{ $ref: "#/components/schemas/Pet" }` for a registered schema; an unregistered one is a bug. */
export function componentRef(schema: z.ZodType): JsonSchema {
  const id = COMPONENTS.get(schema)?.id;
  if (id === undefined) throw new Error("componentRef: this schema is not registered as a component");
  return { $ref: `#/components/schemas/${id}` };
}
