import type { Command } from "commander";
import type { CliContext } from "../context.js";

/** `petstore openapi`: prints the OpenAPI 3.1 document the server serves at /v1/openapi.json. */
export function registerOpenApi(program: Command, ctx: CliContext): void {
  program
    .command("openapi")
    .description("Print the API's OpenAPI 3.1 document (the one served at /v1/openapi.json)")
    .addHelpText(
      "after",
      "\nExamples:\n  $ petstore openapi > openapi.json\n  $ npx openapi-typescript openapi.json -o petstore.d.ts\n",
    )
    .action(async () => {
      // Built from the zod schemas: loaded only by this command, never at CLI start-up.
      const { buildOpenApiDocument } = await import("../../contract/openapi.js");
      ctx.io.stdout.write(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
    });
}
