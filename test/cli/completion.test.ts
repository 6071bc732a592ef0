// The scripts are run by the real shells: what a user gets after pressing Tab.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { createTestContext } from "./helpers/test-context.js";

const has = (shell: string) => spawnSync(shell, ["-c", "exit 0"]).status === 0;
const scripts: Record<string, string> = {};

/** These tests never skip: a missing shell fails them, with the way to get it (.ci/run installs both). */
function requireShell(shell: string): void {
  if (!has(shell)) throw new Error(`${shell} is not installed: apt-get install ${shell} (.ci/run installs it)`);
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "petstore-completion-"));
  for (const shell of ["bash", "zsh", "fish"]) {
    const test = createTestContext();
    expect(await main(["completion", shell], test.ctx)).toBe(0);
    scripts[shell] = join(dir, `petstore.${shell}`);
    await writeFile(scripts[shell], test.stdout());
  }
});

// What each line should complete to (the last word is being typed).
const cases: [string, string[]][] = [
  ["petstore ", ["pets", "keys", "config", "orders", "inventory", "completion", "serve", "openapi", "status"]],
  ["petstore pets ", ["list", "add", "get", "delete"]],
  ["petstore keys ", ["create", "list", "revoke"]],
  ["petstore orders ", ["place", "list", "get", "approve", "deliver", "cancel"]],
  ["petstore orders list --status ", ["placed", "approved", "delivered", "cancelled"]],
  ["petstore --env staging --base-url http://x/v1 pets ", ["list", "add", "get", "delete"]],
  ["petstore pets list --status ", ["available", "pending", "sold"]],
  ["petstore keys create --plan ", ["free", "pro", "business", "enterprise"]],
  ["petstore completion ", ["bash", "zsh", "fish"]],
  ["petstore config set ", ["base-url", "api-key", "deprecation-notices"]],
  ["petstore pets list --l", ["--limit"]],
  ["petstore pets add --", ["--name", "--category", "--status", "--help", "--version", "--base-url", "--env", "--api-key", "--json", "--timeout", "--retries", "--max-wait", "--verbose", "--color", "--no-color", "--no-pager"]],
];

describe("bash", () => {
  it.each(cases)("%j completes to %j", (line, expected) => {
    const script = `source "$1"; read -ra COMP_WORDS <<< "$2"; [[ "$2" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _petstore_completions; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const output = execFileSync("bash", ["-c", script, "bash", scripts.bash!, line], { encoding: "utf8" });
    expect(output.trim().split("\n").sort()).toEqual([...expected].sort());
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
      'words=(${(z)2}); [[ "$2" == *" " ]] && words+=(""); CURRENT=${#words}',
      '_petstore | sed "s/\\\\\\\\//g"',
    ].join("\n");
    const output = execFileSync("zsh", ["-c", script, "zsh", scripts.zsh!, line], { encoding: "utf8" });
    const prefix = line.endsWith(" ") ? "" : (line.split(" ").at(-1) ?? "");
    const candidates = output.trim().split("\n").filter((word) => word.startsWith(prefix));
    expect(candidates.sort()).toEqual([...expected].sort());
  });
});

describe("fish", () => {
  beforeAll(() => requireShell("fish"));
  it.each(cases)("%j completes to %j", (line, expected) => {
    const output = execFileSync("fish", ["-c", 'source $argv[1]; complete -C "$argv[2]"', scripts.fish!, line], { encoding: "utf8" });
    const words = output.trim().split("\n").map((entry) => entry.split("\t")[0]);
    expect(words.sort()).toEqual([...expected].sort());
  });
});
