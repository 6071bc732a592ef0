// Profile names after --env come from the config file at the moment of Tab: the scripts ask the
// built binary (`petstore __complete profiles`), found on PATH as a user's would be, and the real
// shells run them. A missing or broken config file completes to nothing and prints nothing.
import { spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../../helpers/serve-process.js";
import { runCli } from "../helpers/run-cli.js";

let dir = "";
let binDir = "";
const scripts: Record<string, string> = {};
const CONFIG = { profiles: { staging: { baseUrl: "https://staging.example.com/v1" }, production: { baseUrl: "https://api.example.com/v1" } } };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "petstore-completion-e2e-"));
  binDir = join(dir, "bin");
  await mkdir(binDir);
  // `petstore` on PATH, as an installed one is: the scripts call it by that name.
  await writeFile(join(binDir, "petstore"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(join(binDir, "petstore"), 0o755);
  await writeFile(join(dir, "config.json"), JSON.stringify(CONFIG));
  await writeFile(join(dir, "broken.json"), "{ not json");
  await mkdir(join(dir, "xdg", "petstore"), { recursive: true });
  await writeFile(join(dir, "xdg", "petstore", "config.json"), JSON.stringify({ profiles: { local: {} } }));
  for (const shell of ["bash", "zsh", "fish"]) {
    const result = await runCli(["completion", shell]);
    expect(result.code).toBe(0);
    scripts[shell] = join(dir, `petstore.${shell}`);
    await writeFile(scripts[shell], result.stdout);
  }
});

const SHELL_RUNNERS: Record<string, (script: string, line: string) => string[]> = {
  bash: (script, line) => [
    "-c",
    `source "$1"; read -ra COMP_WORDS <<< "\${2//=/ = }"; [[ "$2" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _petstore_completions; printf '%s\\n' "\${COMPREPLY[@]}"`,
    "bash",
    script,
    line,
  ],
  zsh: (script, line) => [
    "-c",
    [
      'compdef() {}; source "$1"',
      'compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@"; }',
      "_message() {}",
      "compset() {}",
      'words=(${(z)2}); [[ "$2" == *" " ]] && words+=(""); CURRENT=${#words}',
      "_petstore",
    ].join("\n"),
    "zsh",
    script,
    line,
  ],
  fish: (script, line) => ["-c", 'source $argv[1]; complete -C "$argv[2]"', script, line],
};

/** The values offered after `line` in `shell`, and what the shell printed on stderr. */
function complete(shell: string, line: string, env: Record<string, string>): { values: string[]; stderr: string } {
  const args = SHELL_RUNNERS[shell]!(scripts[shell]!, line);
  const result = spawnSync(shell, args, { encoding: "utf8", env: { PATH: `${binDir}:${process.env.PATH}`, HOME: dir, ...env } });
  const typed = line.split(" ").at(-1) ?? "";
  const flag = /^(--[^=]+=)/.exec(typed)?.[1] ?? "";
  const values = result.stdout
    .split("\n")
    .map((entry) => (entry.split("\t")[0] ?? "").replace(shell === "fish" ? flag : "", ""))
    .filter((value) => value !== "" && value.startsWith(typed.replace(/^--[^=]*=/, "")));
  return { values: values.sort(), stderr: result.stderr };
}

describe.each(["bash", "zsh", "fish"])("%s completes profile names after --env", (shell) => {
  const inUse = { PETSTORE_CONFIG: "" };
  beforeAll(() => {
    // Never skipped: a missing shell fails, naming the package (.ci/run installs them).
    if (spawnSync(shell, ["-c", "exit 0"]).status !== 0) throw new Error(`${shell} is not installed: apt-get install ${shell}`);
    inUse.PETSTORE_CONFIG = join(dir, "config.json");
  });

  it.each([
    ["petstore --env ", ["production", "staging"]],
    ["petstore --env sta", ["staging"]],
    ["petstore --env=", ["production", "staging"]],
    ["petstore --env=pro", ["production"]],
    ["petstore pets list --env ", ["production", "staging"]],
    ["petstore config set base-url --env=s", ["staging"]],
  ])("%j offers %j from $PETSTORE_CONFIG", (line, expected) => {
    expect(complete(shell, line, inUse)).toEqual({ values: expected, stderr: "" });
  });

  it("reads the default path ($XDG_CONFIG_HOME/petstore/config.json) when PETSTORE_CONFIG is unset", () => {
    expect(complete(shell, "petstore --env ", { XDG_CONFIG_HOME: join(dir, "xdg") })).toEqual({ values: ["local"], stderr: "" });
  });

  it.each([
    ["missing", "nowhere.json"],
    ["broken", "broken.json"],
  ])("offers nothing and prints nothing when the config file is %s", (_what, file) => {
    expect(complete(shell, "petstore --env ", { PETSTORE_CONFIG: join(dir, file) })).toEqual({ values: [], stderr: "" });
  });
});

describe("the completion helper", () => {
  it("prints the profile names one a line, and nothing, exit 0, when the file is missing or broken", async () => {
    const found = await runCli(["__complete", "profiles"], { env: { PETSTORE_CONFIG: join(dir, "config.json") } });
    expect(found).toEqual({ code: 0, stdout: "staging\nproduction\n", stderr: "" });
    for (const file of ["nowhere.json", "broken.json"]) {
      expect(await runCli(["__complete", "profiles"], { env: { PETSTORE_CONFIG: join(dir, file) } })).toEqual({ code: 0, stdout: "", stderr: "" });
    }
  });

  it("is not offered to people: not in the help, not completed", async () => {
    expect((await runCli(["--help"])).stdout).not.toContain("__complete");
    expect(complete("bash", "petstore _", {}).values).toEqual([]);
  });
});
