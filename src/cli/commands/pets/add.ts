import { Command, Option } from "commander";
import { PET_NAME_MAX_LENGTH, PET_STATUSES, type NewPet, type Pet, type PetStatus } from "../../../contract/values.js";
import { petOf } from "../../internal/answer-shape.js";
import { withClient, type CliContext } from "../../context.js";
import { askForMissing, validatorOf } from "../../internal/ask.js";
import { idValue, textFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { PET_FIELDS } from "../../output/record-fields.js";

interface AddFlags {
  name?: string;
  category?: string;
  status?: PetStatus;
}

export interface AddOptions {
  settings: Settings;
  pet: NewPet;
}

export function addCommand(ctx: CliContext): Command {
  const command = new Command("add")
    .alias("create")
    .description("Add a pet and print it (--json: the Pet object)")
    .option("--name <name>", `the pet's name (at most ${PET_NAME_MAX_LENGTH} characters); asked for on a terminal`)
    .option("--category <id>", "the category id, a positive integer; asked for on a terminal")
    .addOption(new Option("--status <status>", "the status (the server's default when omitted)").choices(PET_STATUSES))
    .action(async (flags: AddFlags, self: Command) => {
      // Flags given are checked before anything is asked: a typo costs no typing.
      textFlag("--name", flags.name, PET_NAME_MAX_LENGTH);
      if (flags.category !== undefined) idValue("--category", flags.category);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      const pet: NewPet = { name: await nameOf(flags, ctx), categoryId: idValue("--category", await categoryOf(flags, ctx)) };
      if (flags.status !== undefined) pet.status = flags.status;
      await runAdd({ settings, pet }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, PET_FIELDS);
  return withExamples(
    command,
    "petstore pets add --name Rex --category 1",
    "petstore pets add --name Tom --category 2 --status pending --json",
  );
}

async function nameOf(flags: AddFlags, ctx: CliContext): Promise<string> {
  if (flags.name !== undefined) return flags.name;
  const check = (value: string) => textFlag("The name", value, PET_NAME_MAX_LENGTH);
  return askForMissing(ctx, { flag: "--name <name>", question: "Name of the pet?", validate: validatorOf(check) });
}

async function categoryOf(flags: AddFlags, ctx: CliContext): Promise<string> {
  if (flags.category !== undefined) return flags.category;
  const check = (value: string) => idValue("The category", value);
  return askForMissing(ctx, { flag: "--category <id>", question: "Category id?", validate: validatorOf(check) });
}

export async function runAdd(options: AddOptions, ctx: CliContext): Promise<void> {
  const { printPet } = await import("../../output/pets.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<Pet>("POST", "/pets", { body: options.pet }));
  printPet(petOf(response), stdoutOf(ctx, options.settings), { json: options.settings.json });
}
