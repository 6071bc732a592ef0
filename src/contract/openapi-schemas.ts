// components.schemas of the OpenAPI document, exported from the very zod schemas the server
// validates with (every one registered in COMPONENTS), so the document cannot drift from the code.
import * as z from "zod";
import { ERROR_CODE_DOCS, ERROR_CODES } from "./errors.js";
import { COMPONENTS } from "./components.js";
import type { JsonSchema } from "./route-types.js";
import { ErrorSchema } from "./schemas.js";

/**
 * The component schemas (every schema the route tables name is loaded, so registered, by now),
 * with `$ref`s between them for shared parts (PetStatus, Plan, KeyLimits).
 */
export function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(COMPONENTS, {
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === ErrorSchema.shape.code) Object.assign(jsonSchema, errorCodeDocs());
    },
  });
  // OpenAPI names components by their key; a `$id` with a fragment is not valid JSON Schema.
  // Sorted by name: the order schemas register in depends on which module a bundle evaluates
  // first, and the document must be the same text from the server, the CLI and the executable.
  return Object.fromEntries(
    Object.entries(schemas)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, schema]) => {
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
