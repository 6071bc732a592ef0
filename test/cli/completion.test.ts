// The scripts are run by the real shells: what a user gets after pressing Tab.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
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

const GLOBAL_FLAGS = ["--help", "--version", "--base-url", "--env", "--api-key", "--json", "--timeout", "--retries", "--max-wait", "--ca-cert", "--verbose", "--color", "--no-color", "--no-pager"];

// What each line should complete to (the last word is being typed).
const cases: [string, string[]][] = [
  ["petstore ", ["pets", "keys", "config", "orders", "inventory", "api", "db", "events", "completion", "serve", "openapi", "status"]],
  ["petstore pets ", ["list", "add", "get", "update", "delete", "import", "export"]],
  ["petstore keys ", ["create", "list", "revoke", "rotate"]],
  ["petstore orders ", ["place", "list", "get", "approve", "deliver", "cancel"]],
  ["petstore orders list --status ", ["placed", "approved", "delivered", "cancelled"]],
  ["petstore orders list --status=", ["placed", "approved", "delivered", "cancelled"]],
  ["petstore --env staging --base-url http://x/v1 pets ", ["list", "add", "get", "update", "delete", "import", "export"]],
  ["petstore --env=staging --base-url=http://x/v1 pets ", ["list", "add", "get", "update", "delete", "import", "export"]],
  ["petstore pets list --status ", ["available", "pending", "sold"]],
  ["petstore keys create --plan ", ["free", "pro", "business", "enterprise"]],
  ["petstore completion ", ["bash", "zsh", "fish"]],
  ["petstore config set ", ["base-url", "api-key", "deprecation-notices", "ca-cert"]],
  ["petstore pets list --l", ["--limit"]],
  ["petstore config get ", ["base-url", "api-key", "deprecation-notices", "ca-cert"]],
  ["petstore config unset ", ["base-url", "api-key", "deprecation-notices", "ca-cert"]],
  ["petstore pets update 7 --status ", ["available", "pending", "sold"]],
  ["petstore pets update 7 --if-match x --", ["--name", "--category", "--status", "--if-match", "--jq", ...GLOBAL_FLAGS]],
  ["petstore pets delete 7 --", ["--yes", "--if-match", ...GLOBAL_FLAGS]],
  // The --flag=value forms: what is offered is the value (bash and zsh replace the text after "=").
  ["petstore pets list --status=av", ["available"]],
  ["petstore pets update 7 --status=", ["available", "pending", "sold"]],
  ["petstore --color=al", ["always"]],
  // File names, from the folder the shell is in.
  ["petstore serve --db p", ["pets.json", "plans.json"]],
  ["petstore serve --config pl", ["plans.json"]],
  ["petstore serve --db=p", ["pets.json", "plans.json"]],
  ["petstore serve --config=", ["pets.json", "plans.json", "other.txt"]],
  ["petstore serve --db=pets.json --", ["--port", "--host", "--db", "--redis", "--config", "--https", "--cert", "--key", "--quiet", "--log-format", "--trust-proxy", "--metrics-port", "--metrics-host", "--metrics-token", "--public-url", "--cors-origin", ...GLOBAL_FLAGS]],
  ["petstore serve --log-format ", ["text", "json"]],
  ["petstore pets add --", ["--name", "--category", "--status", "--jq", ...GLOBAL_FLAGS]],
  ["petstore events --", ["--types", "--since", "--forward-to", "--secret", ...GLOBAL_FLAGS]],
  ["petstore events --since 3 --f", ["--forward-to"]],
];

/** Runs the bash function on a line split into COMP_WORDS as bash splits it: at blanks, and around "=" unless told. */
function bashComplete(line: string, splitAtEquals = true): string[] {
  const split = splitAtEquals ? '"${2//=/ = }"' : '"$2"';
  const script = `source "$1"; read -ra COMP_WORDS <<< ${split}; [[ "$2" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _petstore_completions; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const output = execFileSync("bash", ["-c", script, "bash", scripts.bash!, line], { encoding: "utf8", cwd });
  return output.trim().split("\n").sort();
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
      'compadd() { shift; print -l -- "$@"; }',
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
    const words = output.trim().split("\n").map((entry) => (entry.split("\t")[0] ?? "").slice(flag.length));
    expect(words.sort()).toEqual([...expected].sort());
  });
});
