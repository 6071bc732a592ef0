import { Command } from "commander";
import type { Pet } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { SilentError, UsageError, ExitCode } from "../../errors.js";
import { canAsk } from "../../internal/ask.js";
import { deleteOnce } from "../../internal/delete-once.js";
import type { ApiClient } from "../../http.js";
import { idValue, ifMatchValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";

export interface DeleteOptions {
  settings: Settings;
  id: number;
  /** --yes: delete without asking (needed without a terminal). */
  yes: boolean;
  /** The ETag the pet must still have (--if-match): not deleted when it changed since it was read. */
  ifMatch?: string;
}

export function deleteCommand(ctx: CliContext): Command {
  const command = new Command("delete")
    .alias("rm")
    .description("Delete a pet by id, for good (its id is never reused). Asks first on a terminal")
    .argument("<id>", "the pet's id, a positive integer")
    .option("-y, --yes", "delete without asking (required when not on a terminal)")
    .option("--if-match <etag>", "delete it only if it still has this ETag, as `pets get <id> --verbose` shows it; else exit 1, nothing deleted")
    .action(async (id: string, flags: { yes?: boolean; ifMatch?: string }, self: Command) => {
      const petId = idValue("<id>", id);
      const ifMatch = flags.ifMatch === undefined ? undefined : ifMatchValue(flags.ifMatch);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runDelete({ settings, id: petId, yes: flags.yes === true, ifMatch }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(
    command,
    "petstore pets delete 42",
    "petstore pets delete 42 --yes   # in a script",
    'petstore pets delete 42 --yes --if-match "pet-42-3"   # not if it changed since it was read',
  );
}

/** Deletes after a confirmation that names the pet, fetched first; with --yes, one DELETE and nothing else. */
export async function runDelete(options: DeleteOptions, ctx: CliContext): Promise<Outcome> {
  if (!options.yes && !canAsk(ctx)) {
    throw new UsageError(`pets delete asks before it deletes, and there is no terminal to ask on; add --yes to delete pet ${options.id}`);
  }
  return withClient(ctx, options.settings, async (api) => {
    if (!options.yes) await confirmDelete(api, options.id, ctx);
    const headers = options.ifMatch === undefined ? undefined : { "if-match": options.ifMatch };
    if ((await deleteOnce(api, `/pets/${options.id}`, headers)) === "gone-on-retry") {
      const message = `pet ${options.id} was gone when a retry of the DELETE arrived: the first attempt got no answer and most likely deleted it.`;
      return { kind: "notice", message };
    }
    return { kind: "changed", message: `Deleted pet ${options.id}.` };
  });
}

async function confirmDelete(api: ApiClient, id: number, ctx: CliContext): Promise<void> {
  // GET /pets/{id} is deprecated, but the only way to name one pet; its notice is not shown here.
  const pet = (await api.request<Pet>("GET", `/pets/${id}`)).body;
  if (!(await ctx.prompt.confirm(`Delete ${describePet(pet)}? This cannot be undone.`))) {
    ctx.io.stderr.write(`Not deleted: pet ${id}.\n`);
    throw new SilentError(ExitCode.usage);
  }
}

/** `pet 7 "Rex" (category 1, available)`: what a person recognises a pet by. */
function describePet(pet: Pet): string {
  return `pet ${pet.id} "${pet.name}" (category ${pet.categoryId}, ${pet.status})`;
}
