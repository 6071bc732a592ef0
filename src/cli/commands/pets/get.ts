import { Command } from "commander";
import type { Pet } from "../../../contract/values.js";
import { petOf } from "../../internal/answer-shape.js";
import { withClient, type CliContext } from "../../context.js";
import type { ResponseHeaders } from "../../http.js";
import { idValue } from "../../internal/flags.js";
import { firstToday } from "../../internal/once-a-day.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { PET_FIELDS } from "../../output/record-fields.js";

export interface GetOptions {
  settings: Settings;
  id: number;
}

export function getCommand(ctx: CliContext): Command {
  const command = new Command("get")
    .description(
      "Print one pet by id. The server marks this call deprecated (find pets with `pets list --search <name>`): a notice says so once a day " +
        "(PETSTORE_NO_DEPRECATION_NOTICE=1 or `petstore config set deprecation-notices off` silence it)",
    )
    .argument("<id>", "the pet's id, a positive integer")
    .action(async (id: string, _flags: unknown, self: Command) => {
      const petId = idValue("<id>", id);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runGet({ settings, id: petId }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, PET_FIELDS);
  return withExamples(
    command,
    "petstore pets get 42",
    "petstore pets get 42 --json | jq .status",
    "petstore pets get 42 --verbose     # also its ETag on stderr, for --if-match",
  );
}

export async function runGet(options: GetOptions, ctx: CliContext): Promise<void> {
  const { printPet } = await import("../../output/pets.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<Pet>("GET", `/pets/${options.id}`));
  printPet(petOf(response), stdoutOf(ctx, options.settings), { json: options.settings.json });
  // Only after a pet came back: on a 404 the notice would bury the one line that matters.
  const notice = options.settings.deprecationNotices ? deprecationNotice(response.headers) : undefined;
  if (notice && (await firstToday("deprecationNoticeShown", options.settings.baseUrl, ctx))) ctx.io.stderr.write(`${notice}\n`);
}

/**
 * The one line said for a response marked with Deprecation (RFC 9745) or Sunset (RFC 8594): what
 * is deprecated, and when it goes away. How to silence it is in `pets get --help`.
 */
export function deprecationNotice(headers: ResponseHeaders): string | undefined {
  const { deprecation, sunset } = headers;
  if (deprecation === undefined && sunset === undefined) return undefined;
  const sunsetAt = sunset === undefined ? Number.NaN : Date.parse(sunset);
  const removal = Number.isNaN(sunsetAt) ? "" : `; it goes away on ${new Date(sunsetAt).toISOString().slice(0, 10)}`;
  return `Warning: \`pets get\` (GET /pets/{id}) is deprecated${removal}.`;
}
