// The `parameters` of each operation in the document, generated from the zod schemas its route
// entry declares (parameters.ts): what a client sends is documented, so a schema that converts
// the text it is sent (digits to an integer) is documented by its target, and one that decodes a
// text (a cursor) by that text.
import * as z from "zod";
import type { JsonSchema, ParameterShape, RouteRequest } from "./route-types.js";

const LOCATIONS = [
  ["path", "path"],
  ["query", "query"],
  ["headers", "header"],
] as const;

/** The parameter objects of one operation: path, then query, then header parameters, each in declared order. */
export function parameterObjects(request: RouteRequest | undefined): JsonSchema[] {
  return LOCATIONS.flatMap(([kind, where]) => {
    const shape: ParameterShape = request?.[kind] ?? {};
    return Object.entries(shape).map(([name, schema]) => parameterObject(name, where, schema));
  });
}

function parameterObject(name: string, where: string, schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, description, ...json } = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }) as JsonSchema;
  // A parameter that takes a component's values (a status filter) refers to that component.
  const documented = typeof json.$ref === "string" ? { $ref: json.$ref } : json;
  return { name, in: where, description, required: where === "path", schema: documented };
}
