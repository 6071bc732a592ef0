// `petstore --help` lists the top-level commands from a table without building them
// (src/cli/commands/top-level.ts): each placeholder must read exactly as the real command would.
import { Command, Help } from "commander";
import { describe, expect, it } from "vitest";
import { addTopCommands, TOP_COMMANDS } from "../../src/cli/commands/top-level.js";
import { main } from "../../src/cli/main.js";
import { createTestContext } from "./helpers/test-context.js";

/** A bare program with the top-level commands, built as a run with this argv would build them. */
function programFor(argv: string[]): Command {
  const program = new Command("petstore").description("d");
  addTopCommands(program, createTestContext().ctx, () => {}, argv);
  return program;
}

describe("the top-level command table", () => {
  it("lists every command as the real one does: the same help text, order, names and hidden ones", () => {
    const placeholders = programFor([]);
    const real = programFor(["completion"]);
    expect(placeholders.helpInformation()).toBe(real.helpInformation());
    expect(placeholders.commands.map((command) => command.name())).toEqual(real.commands.map((command) => command.name()));
    expect(new Help().visibleCommands(placeholders).map((command) => command.name())).toEqual(new Help().visibleCommands(real).map((command) => command.name()));
    expect(placeholders.commands.map((command) => command.name())).toEqual(TOP_COMMANDS.map((entry) => entry.name));
  });

  it("builds only the command argv names (or all of them for completion)", () => {
    // A placeholder has neither subcommands nor an action (commander keeps the action privately).
    const isBuilt = (command: Command) => command.commands.length > 0 || (command as unknown as { _actionHandler: unknown })._actionHandler !== null;
    const built = (program: Command) => program.commands.filter(isBuilt).map((command) => command.name());
    expect(built(programFor(["--help"]))).toEqual([]);
    expect(built(programFor(["--env", "staging", "pets", "list"]))).toEqual(["pets"]);
    expect(built(programFor(["help", "keys"]))).toEqual(["keys"]);
    expect(built(programFor(["completion", "bash"]))).toEqual(TOP_COMMANDS.map((entry) => entry.name));
  });

  it("each command's own help is the real one, built when named", async () => {
    const test = createTestContext({ env: { PETSTORE_CONFIG: "/nonexistent/petstore.json" } });
    expect(await main(["pets", "list", "--help"], test.ctx)).toBe(0);
    expect(test.stdout()).toMatch(/^Usage: petstore pets list\|ls \[options\]/m);
    expect(test.stdout()).toMatch(/--status <status>/);
  });
});
