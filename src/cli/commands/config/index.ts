import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { getCommand } from "./get.js";
import { listCommand } from "./list.js";
import { pathCommand } from "./path.js";
import { setCommand } from "./set.js";
import { unsetCommand } from "./unset.js";

export function configCommand(ctx: CliContext): Command {
  return new Command("config")
    .description("Read and write the config file: base URL and API key, per environment")
    .addHelpText(
      "after",
      "\nThe file is $PETSTORE_CONFIG, else $XDG_CONFIG_HOME/petstore/config.json, else\n" +
        "~/.config/petstore/config.json. Top-level values apply without --env; `--env <name>` reads\n" +
        "and writes the profile of that name.\n",
    )
    .addCommand(setCommand(ctx))
    .addCommand(getCommand(ctx))
    .addCommand(unsetCommand(ctx))
    .addCommand(listCommand(ctx))
    .addCommand(pathCommand(ctx));
}
