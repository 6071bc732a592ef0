// components.schemas of the OpenAPI document, exported from the very zod schemas the server
// validates with, so the document cannot drift from the code.
import * as z from "zod";
import { ERROR_CODE_DOCS, ERROR_CODES } from "./errors.js";
import type { JsonSchema } from "./routes.js";
import {
  CreatedKeySchema,
  ErrorSchema,
  InventorySchema,
  KeyLimitsSchema,
  KeyViewSchema,
  NewKeySchema,
  RotateKeySchema,
  NewOrderSchema,
  NewPetSchema,
  OrderPatchSchema,
  OrderSchema,
  OrdersSchema,
  OrderStatusSchema,
  PetPatchSchema,
  PetSchema,
  PetsSchema,
  PetStatusSchema,
  PlanSchema,
} from "./schemas.js";

/** Component name -> schema; every one becomes #/components/schemas/<name>. */
const COMPONENTS: ReadonlyArray<[string, z.ZodType]> = [
  ["Pet", PetSchema],
  ["NewPet", NewPetSchema],
  ["PetPatch", PetPatchSchema],
  ["PetStatus", PetStatusSchema],
  ["Pets", PetsSchema],
  ["Order", OrderSchema],
  ["NewOrder", NewOrderSchema],
  ["OrderPatch", OrderPatchSchema],
  ["OrderStatus", OrderStatusSchema],
  ["Orders", OrdersSchema],
  ["Inventory", InventorySchema],
  ["Error", ErrorSchema],
  ["Plan", PlanSchema],
  ["KeyLimits", KeyLimitsSchema],
  ["NewKey", NewKeySchema],
  ["KeyView", KeyViewSchema],
  ["CreatedKey", CreatedKeySchema],
  ["RotateKey", RotateKeySchema],
];

/** The component schemas, with `$ref`s between them for shared parts (PetStatus, Plan, KeyLimits). */
export function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of COMPONENTS) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === ErrorSchema.shape.code) Object.assign(jsonSchema, errorCodeDocs());
    },
  });
  // OpenAPI names components by their key; a `$id` with a fragment is not valid JSON Schema.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}

function errorCodeDocs(): JsonSchema {
  const lines = ERROR_CODES.map((code) => `- \`${code}\` (${ERROR_CODE_DOCS[code].status}): ${ERROR_CODE_DOCS[code].meaning}`);
  return {
    description: `Machine-readable error code:\n\n${lines.join("\n")}`,
    // Redocly and other renderers show one description per enum value from this map.
    "x-enumDescriptions": Object.fromEntries(ERROR_CODES.map((code) => [code, ERROR_CODE_DOCS[code].meaning])),
  };
}
