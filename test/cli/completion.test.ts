// The scripts are run by the real shells: what a user gets after pressing Tab.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Help, type Command } from "commander";
import { globalFlagsTakenBy } from "../../src/cli/internal/global-options.js";
import { createProgram, main } from "../../src/cli/main.js";
import { createTestContext } from "./helpers/test-context.js";

const has = (shell: string) => spawnSync(shell, ["-c", "exit 0"]).status === 0;
const scripts: Record<string, string> = {};
/** The shells run here, among files for --db and --config to complete. */
let cwd = "";

/** These tests never skip: a missing shell fails them, with the way to get it (.ci/run installs both). */
function requireShell(shell: string): void {
  if (!has(shell)) throw new Error(`${shell} is not installed: apt-get install ${shell} (.ci/run installs it)`);
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "petstore-completion-"));
  cwd = join(dir, "files");
  await mkdir(cwd);
  for (const file of ["pets.json", "plans.json", "other.txt"]) await writeFile(join(cwd, file), "{}");
  for (const shell of ["bash", "zsh", "fish"]) {
    const test = createTestContext();
    expect(await main(["completion", shell], test.ctx)).toBe(0);
    scripts[shell] = join(dir, `petstore.${shell}`);
    await writeFile(scripts[shell], test.stdout());
  }
});

// What each line should complete to, read from the command tree itself: the verbs, flags and
// choices the commands declare (a verb added to the tree is expected here without a list to edit).
const program = createProgram(createTestContext().ctx, () => {}, ["completion"]);

function commandAt(path: string): Command {
  let command = program;
  for (const name of path.split(" ").filter(Boolean)) {
    const sub = command.commands.find((candidate) => candidate.name() === name);
    if (sub === undefined) throw new Error(`no command "${path}" in the tree`);
    command = sub;
  }
  return command;
}

/** The verbs a person may type after `path`: not the hidden helper, not commander's implicit `help`. */
const subcommands = (path: string) =>
  new Help().visibleCommands(commandAt(path)).filter((sub) => commandAt(path).commands.includes(sub)).map((sub) => sub.name());
/** The long flags valid after `path`: its own, --help, and the global ones it declares it takes. */
const flags = (path: string) => {
  const command = commandAt(path);
  const own = command.options.filter((option) => !option.hidden).map((option) => option.long);
  return [...own, "--help", ...globalFlagsTakenBy(command, program)].filter((flag): flag is string => flag?.startsWith("--") === true);
};
const choices = (path: string, flag: string) => commandAt(path).options.find((option) => option.long === flag)?.argChoices ?? [];
const argChoices = (path: string) => commandAt(path).registeredArguments[0]?.argChoices ?? [];

const cases: [string, string[]][] = [
  ["petstore ", subcommands("")],
  ["petstore pets ", subcommands("pets")],
  ["petstore keys ", subcommands("keys")],
  ["petstore orders ", subcommands("orders")],
  ["petstore config ", subcommands("config")],
  ["petstore db ", subcommands("db")],
  ["petstore orders list --status ", choices("orders list", "--status")],
  ["petstore orders list --status=", choices("orders list", "--status")],
  ["petstore --env staging --base-url http://x/v1 pets ", subcommands("pets")],
  ["petstore --env=staging --base-url=http://x/v1 pets ", subcommands("pets")],
  ["petstore pets list --status ", choices("pets list", "--status")],
  ["petstore pets list --sort ", ["id", "-id", "name", "-name"]],
  ["petstore pets list --search rex --sort=", ["id", "-id", "name", "-name"]],
  ["petstore pets list --sort -n", ["-name"]],
  ["petstore keys create --plan ", choices("keys create", "--plan")],
  ["petstore completion ", argChoices("completion")],
  ["petstore config set ", argChoices("config set")],
  ["petstore pets list --l", flags("pets list").filter((flag) => flag.startsWith("--l"))],
  ["petstore config get ", argChoices("config get")],
  ["petstore config unset ", argChoices("config unset")],
  ["petstore pets update 7 --status ", choices("pets update", "--status")],
  ["petstore pets update 7 --if-match x --", flags("pets update")],
  ["petstore pets delete 7 --", flags("pets delete")],
  // The --flag=value forms: what is offered is the value (bash and zsh replace the text after "=").
  ["petstore pets list --status=av", ["available"]],
  ["petstore pets update 7 --status=", choices("pets update", "--status")],
  ["petstore --color=al", ["always"]],
  // File names, from the folder the shell is in.
  ["petstore serve --db p", ["pets.json", "plans.json"]],
  ["petstore serve --config pl", ["plans.json"]],
  ["petstore serve --db=p", ["pets.json", "plans.json"]],
  ["petstore serve --config=", ["pets.json", "plans.json", "other.txt"]],
  ["petstore serve --db=pets.json --", flags("serve")],
  ["petstore serve --log-format ", choices("serve", "--log-format")],
  ["petstore pets add --", flags("pets add")],
  ["petstore config set api-key --", flags("config set")],
  ["petstore events --", flags("events")],
  ["petstore events --since 3 --f", flags("events").filter((flag) => flag.startsWith("--f"))],
  // A comma-separated list: each item is completed, and the items already listed are not offered again.
  ["petstore keys create --scopes ", ["pets:read", "pets:write", "orders:read", "orders:write", "events:read"]],
  ["petstore keys create --scopes pets:", ["pets:read", "pets:write"]],
  ["petstore keys create --scopes pets:read,", ["pets:read,pets:write", "pets:read,orders:read", "pets:read,orders:write", "pets:read,events:read"]],
  ["petstore keys create --scopes=pets:read,ev", ["pets:read,events:read"]],
  ["petstore keys create --scopes orders:write,orders:read,o", []],
  ["petstore keys create --scopes pets:read,events:read --p", flags("keys create").filter((flag) => flag.startsWith("--p"))],
  // webhooks: its verbs, their flags, the event types of --types (a list) and the delivery statuses.
  ["petstore webhooks ", subcommands("webhooks")],
  ["petstore webhooks add --types ", choices("webhooks add", "--types")],
  ["petstore webhooks update 3 --types pet.created,", choices("webhooks update", "--types").filter((type) => type !== "pet.created").map((type) => `pet.created,${type}`)],
  ["petstore webhooks update 3 --", flags("webhooks update")],
  ["petstore webhooks deliveries 3 --status ", choices("webhooks deliveries", "--status")],
  ["petstore webhooks deliveries 3 --status=f", ["failed"]],
  ["petstore webhooks remove 3 --", flags("webhooks remove")],
];

describe("the expected lists, read from the tree", () => {
  it("name what each command takes: serve no client flags, the lists --no-pager, config commands --env", () => {
    expect(flags("serve")).not.toEqual(expect.arrayContaining(["--api-key"]));
    for (const flag of ["--api-key", "--json", "--retries", "--env", "--no-pager"]) expect(flags("serve")).not.toContain(flag);
    expect(flags("pets list")).toEqual(expect.arrayContaining(["--limit", "--jq", "--api-key", "--json", "--no-pager", "--color"]));
    expect(flags("pets add")).not.toContain("--no-pager");
    expect(flags("config set")).toEqual(expect.arrayContaining(["--env", "--json"]));
    expect(flags("config set")).not.toContain("--base-url");
    expect(subcommands("pets")).toContain("list");
    expect(subcommands("")).not.toContain("__complete");
    expect(subcommands("webhooks")).toEqual(["add", "list", "get", "update", "remove", "rotate-secret", "test", "deliveries", "retry"]);
    expect(choices("webhooks add", "--types")).toEqual(["pet.created", "pet.updated", "pet.deleted", "order.created", "order.updated", "webhook.disabled"]);
    expect(choices("webhooks deliveries", "--status")).toEqual(["pending", "succeeded", "failed"]);
    expect(flags("webhooks update")).toEqual(expect.arrayContaining(["--url", "--types", "--description", "--enable", "--disable", "--jq"]));
  });
});

/**
 * Runs the bash function on a line split into COMP_WORDS as bash splits it: at blanks, and around
 * "=" and ":" (both in bash's default COMP_WORDBREAKS) unless told. A reply replaces only the text
 * after the last ":", so what the line then holds is that text's beginning and the reply.
 */
function bashComplete(line: string, splitAtBreaks = true): string[] {
  const split = splitAtBreaks ? '"${line//:/ : }"' : '"$2"';
  const script = `source "$1"; line="\${2//=/ = }"; read -ra COMP_WORDS <<< ${split}; [[ "$2" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _petstore_completions; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const output = execFileSync("bash", ["-c", script, "bash", scripts.bash!, line], { encoding: "utf8", cwd });
  const typed = (line.split(" ").at(-1) ?? "").replace(splitAtBreaks ? /^--[^=]*=/ : /^$/, "");
  const kept = splitAtBreaks ? typed.slice(0, typed.lastIndexOf(":") + 1) : "";
  return output.trim().split("\n").filter((reply) => reply !== "").map((reply) => kept + reply).sort();
}

describe("bash", () => {
  it.each(cases)("%j completes to %j", (line, expected) => {
    expect(bashComplete(line)).toEqual([...expected].sort());
  });

  it("keeps the --flag= prefix when COMP_WORDBREAKS has no =, as the whole word is then replaced", () => {
    expect(bashComplete("petstore pets list --status=av", false)).toEqual(["--status=available"]);
    expect(bashComplete("petstore serve --db=pl", false)).toEqual(["--db=plans.json"]);
  });
});

describe("zsh", () => {
  beforeAll(() => requireShell("zsh"));
  it("passes zsh -n", () => {
    execFileSync("zsh", ["-n", scripts.zsh!]);
  });

  it.each(cases)("%j completes to %j", (line, expected) => {
    // _describe and compadd replaced by printers: the script's own logic picks the candidates.
    const script = [
      'compdef() {}; source "$1"',
      "_describe() { local arr=${@[-1]}; print -l -- ${${(P)arr}%%:*}; }",
      'compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@"; }',
      "_message() {}",
      "compset() {}",
      "_files() { print -l -- *(N); }",
      'words=(${(z)2}); [[ "$2" == *" " ]] && words+=(""); CURRENT=${#words}',
      '_petstore | sed "s/\\\\\\\\//g"',
    ].join("\n");
    const output = execFileSync("zsh", ["-c", script, "zsh", scripts.zsh!, line], { encoding: "utf8", cwd });
    // What is being completed: the last word, or after "=" the value (compset -P '*=' in a real shell).
    const prefix = line.endsWith(" ") ? "" : (line.split(" ").at(-1) ?? "").replace(/^--[^=]*=/, "");
    const candidates = output.trim().split("\n").filter((word) => word.startsWith(prefix));
    expect(candidates.sort()).toEqual([...expected].sort());
  });
});

describe("fish", () => {
  beforeAll(() => requireShell("fish"));
  it.each(cases)("%j completes to %j", (line, expected) => {
    const output = execFileSync("fish", ["-c", 'source $argv[1]; complete -C "$argv[2]"', scripts.fish!, line], { encoding: "utf8", cwd });
    // fish offers "--status=available" whole for "--status=av"; the value is what the case names.
    const typed = line.split(" ").at(-1) ?? "";
    const flag = /^(--[^=]+=)/.exec(typed)?.[1] ?? "";
    const words = output.trim().split("\n").filter((entry) => entry !== "").map((entry) => (entry.split("\t")[0] ?? "").slice(flag.length));
    expect(words.sort()).toEqual([...expected].sort());
  });
});
