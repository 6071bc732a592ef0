// The top-level commands as `petstore --help` lists them, so that a run builds only the command
// its argv names: the others are placeholders with a name and a line of help. Building the whole
// tree (every verb's options, choices and help text) was a visible share of `petstore --help` in a profile.
// test/cli/top-level.test.ts checks each line here against the real command.
import { Command, Help } from "commander";
import type { CliContext } from "../context.js";
import { apiCommand } from "./api.js";
import { completeValuesCommand, completionCommand } from "./completion.js";
import { configCommand } from "./config/index.js";
import { dbCommand } from "./db/index.js";
import { eventsCommand } from "./events.js";
import { healthCommand } from "./health.js";
import { inventoryCommand } from "./inventory.js";
import { keysCommand } from "./keys/index.js";
import { registerOpenApi } from "./openapi.js";
import { ordersCommand } from "./orders/index.js";
import { petsCommand } from "./pets/index.js";
import { registerServe } from "./serve.js";
import { serverCommand } from "./server/index.js";
import { registerStatus } from "./status.js";
import { webhooksCommand } from "./webhooks/index.js";
import { COMPLETE_COMMAND } from "../completion/tree.js";

/** Adds the real command to the program. */
type AddCommand = (program: Command, ctx: CliContext, setExitCode: (code: number) => void) => void;

export interface TopCommand {
  name: string;
  description: string;
  /** How the program's help lists it: the name, " [options]" when it has any, its arguments. */
  term: string;
  hidden?: boolean;
  add: AddCommand;
}

/** In the order help lists them. */
export const TOP_COMMANDS: readonly TopCommand[] = [
  { name: "pets", term: "pets", description: "List, add, get, update and delete pets", add: (program, ctx) => program.addCommand(petsCommand(ctx)) },
  { name: "keys", term: "keys", description: "Create, list, revoke and rotate API keys (needs an admin key)", add: (program, ctx) => program.addCommand(keysCommand(ctx)) },
  { name: "config", term: "config", description: "Read and write the config file: base URL and API key, per environment", add: (program, ctx) => program.addCommand(configCommand(ctx)) },
  { name: "orders", term: "orders", description: "Place, list and move orders (beta): placed -> approved -> delivered, or cancelled", add: (program, ctx) => program.addCommand(ordersCommand(ctx)) },
  { name: "inventory", term: "inventory", description: "How many pets are available, pending and sold (beta)", add: (program, ctx) => program.addCommand(inventoryCommand(ctx)) },
  { name: "api", term: "api [options] <path>", description: "Send any request to the API (as `gh api`): the same base URL, key, retries and exit codes as every command", add: (program, ctx) => program.addCommand(apiCommand(ctx)) },
  { name: "db", term: "db", description: "Back up a running server's store; restore, export, import and migrate a stopped one's", add: (program, ctx) => program.addCommand(dbCommand(ctx)) },
  { name: "events", term: "events [options]", description: "Follow every change of pets and orders as it happens, until interrupted (Ctrl-C)", add: (program, ctx) => program.addCommand(eventsCommand(ctx)) },
  { name: "webhooks", term: "webhooks", description: "Add, list, change, test and remove webhook endpoints, and see their deliveries (needs an admin key)", add: (program, ctx) => program.addCommand(webhooksCommand(ctx)) },
  { name: "completion", term: "completion <shell>", description: "Print a shell completion script generated from the command tree", add: (program, ctx) => program.addCommand(completionCommand(ctx)) },
  { name: COMPLETE_COMMAND, term: `${COMPLETE_COMMAND} <what>`, description: "Print values for the completion scripts (profiles)", hidden: true, add: (program, ctx) => program.addCommand(completeValuesCommand(ctx), { hidden: true }) },
  { name: "serve", term: "serve [options]", description: "Run the API server over a lowdb JSON file, or PostgreSQL and Redis", add: registerServe },
  { name: "server", term: "server", description: "Drive a throwaway server (serve --ephemeral) from a test suite: reset it to its seed, change its faults", add: (program, ctx) => program.addCommand(serverCommand(ctx)) },
  { name: "openapi", term: "openapi", description: "Print the API's OpenAPI 3.1 document (the one served at /v1/openapi.json)", add: (program, ctx) => registerOpenApi(program, ctx) },
  { name: "status", term: "status", description: "Show the base URL and profile in use, the server's version, and the key's plan, scopes, limits and what is left", add: (program, ctx) => registerStatus(program, ctx) },
  { name: "health", term: "health [options]", description: "Check that a server is ready for traffic (GET /readyz): exit 0 if so, else the reason and a non-zero exit", add: (program, ctx) => program.addCommand(healthCommand(ctx)) },
];

/**
 * Adds every top-level command: built when its name is one of argv's words (or for `completion`,
 * whose script is made from the whole tree), else a placeholder that help lists the same way.
 */
export function addTopCommands(program: Command, ctx: CliContext, setExitCode: (code: number) => void, argv: readonly string[]): void {
  const words = new Set(argv);
  const all = words.has("completion");
  const terms = new Map<Command, string>();
  for (const entry of TOP_COMMANDS) {
    if (all || words.has(entry.name)) {
      entry.add(program, ctx, setExitCode);
      continue;
    }
    const placeholder = new Command(entry.name).description(entry.description);
    terms.set(placeholder, entry.term);
    program.addCommand(placeholder, { hidden: entry.hidden === true });
  }
  if (terms.size > 0) {
    program.configureHelp({
      ...program.configureHelp(),
      subcommandTerm(this: Help, command: Command) {
        return terms.get(command) ?? Help.prototype.subcommandTerm.call(this, command);
      },
    });
  }
}
