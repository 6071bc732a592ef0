import { Command, Option } from "commander";
import { PET_NAME_MAX_LENGTH, PET_STATUSES, type Pet, type PetStatus } from "../../../contract/values.js";
import { petOf } from "../../internal/answer-shape.js";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { idValue, ifMatchValue, textFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { PET_FIELDS } from "../../output/record-fields.js";

interface UpdateFlags {
  name?: string;
  category?: string;
  status?: PetStatus;
  ifMatch?: string;
}

/** The fields to change: a JSON Merge Patch (RFC 7396), at least one field. */
export interface PetChanges {
  name?: string;
  categoryId?: number;
  status?: PetStatus;
}

export interface UpdateOptions {
  settings: Settings;
  id: number;
  changes: PetChanges;
  /** The ETag the pet must still have (--if-match), so a change made meanwhile is not overwritten. */
  ifMatch?: string;
}

export function updateCommand(ctx: CliContext): Command {
  const command = new Command("update")
    .description("Change a pet's name, category or status (at least one; the others stay) and print the pet as it now is")
    .argument("<id>", "the pet's id, a positive integer")
    .option("--name <name>", `the new name (at most ${PET_NAME_MAX_LENGTH} characters)`)
    .option("--category <id>", "the new category id, a positive integer")
    .addOption(new Option("--status <status>", "the new status").choices(PET_STATUSES))
    .option("--if-match <etag>", "change it only if it still has this ETag, as `pets get <id> --verbose` shows it; else exit 1, nothing changed")
    .action(async (id: string, flags: UpdateFlags, self: Command) => {
      const petId = idValue("<id>", id);
      const changes = changesOf(flags);
      const ifMatch = flags.ifMatch === undefined ? undefined : ifMatchValue(flags.ifMatch);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runUpdate({ settings, id: petId, changes, ifMatch }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, PET_FIELDS);
  return withExamples(
    command,
    "petstore pets update 42 --status sold",
    "petstore pets update 42 --name Rex --category 2 --json",
    'petstore pets get 42 --verbose                          # stderr: ETag: "pet-42-3"',
    'petstore pets update 42 --status pending --if-match "pet-42-3"   # exit 1 if it changed since',
  );
}

/** The patch the flags ask for, checked as `pets add` checks them, before anything is sent. */
export function changesOf(flags: Omit<UpdateFlags, "ifMatch">): PetChanges {
  if (flags.name === undefined && flags.category === undefined && flags.status === undefined) {
    throw new UsageError("pets update needs something to change: give --name, --category or --status (or several)");
  }
  const changes: PetChanges = {};
  if (flags.name !== undefined) changes.name = textFlag("--name", flags.name, PET_NAME_MAX_LENGTH);
  if (flags.category !== undefined) changes.categoryId = idValue("--category", flags.category);
  if (flags.status !== undefined) changes.status = flags.status;
  return changes;
}

/** One PATCH; the pet the server answers with (the whole pet, as updated) is printed as `pets get` prints it. */
export async function runUpdate(options: UpdateOptions, ctx: CliContext): Promise<void> {
  const { printPet } = await import("../../output/pets.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const headers: Record<string, string> = { "content-type": "application/merge-patch+json" };
  if (options.ifMatch !== undefined) headers["if-match"] = options.ifMatch;
  const response = await withClient(ctx, options.settings, (api) =>
    api.request<Pet>("PATCH", `/pets/${options.id}`, { body: options.changes, headers }),
  );
  printPet(petOf(response), stdoutOf(ctx, options.settings), { json: options.settings.json });
}
