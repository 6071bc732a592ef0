import { Command, Option } from "commander";
import { PET_NAME_MAX_LENGTH, PET_STATUSES, type NewPet, type Pet, type PetStatus } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { idValue, textFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";

interface AddFlags {
  name: string;
  category: string;
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
    .requiredOption("--name <name>", `the pet's name (at most ${PET_NAME_MAX_LENGTH} characters)`)
    .requiredOption("--category <id>", "the category id, a positive integer")
    .addOption(new Option("--status <status>", "the status (the server's default when omitted)").choices(PET_STATUSES))
    .action(async (flags: AddFlags, self: Command) => {
      const pet: NewPet = {
        name: textFlag("--name", flags.name, PET_NAME_MAX_LENGTH) as string,
        categoryId: idValue("--category", flags.category),
      };
      if (flags.status !== undefined) pet.status = flags.status;
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runAdd({ settings, pet }, ctx);
    });
  return withExamples(
    command,
    "petstore pets add --name Rex --category 1",
    "petstore pets add --name Tom --category 2 --status pending --json",
  );
}

export async function runAdd(options: AddOptions, ctx: CliContext): Promise<void> {
  const { printPet } = await import("../../output/pets.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<Pet>("POST", "/pets", { body: options.pet }));
  printPet(response.body, stdoutOf(ctx, options.settings), { json: options.settings.json });
}
