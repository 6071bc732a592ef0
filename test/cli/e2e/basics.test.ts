// The binary itself: help, version, completion scripts, usage errors, a closed pipe.
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import pkg from "../../../package.json" with { type: "json" };
import { BIN } from "../../helpers/serve-process.js";
import { runCli } from "../helpers/run-cli.js";

describe("petstore --help", () => {
  it("documents the exit codes and the environment variables on stdout, exit 0", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Exit codes:\n {2}0 {2}success\n {2}1 {2}.+\n {2}2 {2}usage error.+\n {2}3 .+401, 403.+\n {2}4 .+404.+\n {2}5 .+429.+\n {2}6 {2}server unreachable/);
    expect(result.stdout).toMatch(/Environment variables:\n {2}PETSTORE_BASE_URL .+\n {2}PETSTORE_ENV .+\n {2}PETSTORE_API_KEY/);
    expect(result.stderr).toBe("");
  });

  it("prints the version", async () => {
    expect(await runCli(["--version"])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  it("bundles the version of package.json, not the file: no scripts, no devDependencies", () => {
    const dist = fileURLToPath(new URL("../../../dist/", import.meta.url));
    const bundled = readdirSync(dist).filter((name) => /\.c?js$/.test(name));
    expect(bundled).toContain("cli.cjs");
    for (const name of bundled) {
      const text = readFileSync(join(dist, name), "utf8");
      expect(text, name).not.toContain("devDependencies");
      expect(text, name).not.toContain(pkg.description);
    }
  });

  it("prints its help on stdout and exits 0 without a command, as gh does", async () => {
    const result = await runCli([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: petstore /);
    expect(result.stderr).toBe("");
  });
});

describe("usage errors, before any request", () => {
  it.each([
    [["pets", "list", "--limit", "0"], "--limit must be an integer from 1 to"],
    [["pets", "list", "--status", "lost"], "Allowed choices are available, pending, sold."],
    [["pets", "get", "1.5"], "<id> must be an integer"],
    [["keys", "create", "--plan", "gold"], "Allowed choices are free, pro, business, enterprise."],
    [["serve", "--port", "0", "--cert", "cert.pem"], "--cert and --key go together"],
  ])("%j exits 2", async (args, message) => {
    // No server anywhere near: a request would exit 6, not 2.
    const result = await runCli(args, { env: { PETSTORE_BASE_URL: "http://127.0.0.1:9/v1" } });
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toContain(`Error: `);
    expect(result.stderr).toContain(message);
  });
});

describe("petstore completion", () => {
  it("prints a bash script that bash accepts and that completes the commands", async () => {
    const result = await runCli(["completion", "bash"]);
    expect(result.code).toBe(0);
    const script = `${result.stdout}\nCOMP_WORDS=(petstore pets ""); COMP_CWORD=2; _petstore_completions; echo "\${COMPREPLY[*]}"`;
    expect(execFileSync("bash", ["-c", script], { encoding: "utf8" })).toBe("list add get update delete import export\n");
  });

  it.each(["zsh", "fish"])("prints a %s script", async (shell) => {
    const result = await runCli(["completion", shell]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(shell === "zsh" ? "compdef _petstore petstore" : "complete -c petstore");
  });
});

it("stops quietly, exit 0, when the reader of stdout goes away (| head)", async () => {
  const child = spawn(process.execPath, [BIN, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
  // Closed before the CLI has started: its first write to stdout meets EPIPE.
  child.stdout.destroy();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise((resolve) => child.once("close", resolve));
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
});

describe("the bundle", () => {
  const dist = fileURLToPath(new URL("../../../dist/", import.meta.url));
  const importsOf = (file: string) => {
    const text = readFileSync(join(dist, file), "utf8");
    // import() of an ESM chunk (in cli.cjs, __petstoreImport(): scripts/build/code-cache-ready.mjs),
    // or require() of a CommonJS one (undici's, from a stub in cli.cjs).
    const local = [...text.matchAll(/(?:from\s*|(?:import|__petstoreImport)\s*\(\s*|import\s+|require\(\s*)"\.\/([^"]+\.c?js)"/g)].map((match) => match[1]!);
    const packages = [...text.matchAll(/(?:from\s*|(?:import|__petstoreImport)\s*\(\s*|import\s+)"([^."][^"]*)"/g)].map((match) => match[1]!);
    return { local, packages };
  };

  it("never loads the server's modules (h3, listhen, lowdb) or zod for a client command", () => {
    // Everything cli.cjs can reach, statically or lazily, except the chunk behind `serve`.
    const reached = new Set<string>();
    const queue = ["cli.cjs"];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (reached.has(file) || /^(serve|openapi)-/.test(file)) continue;
      reached.add(file);
      queue.push(...importsOf(file).local);
    }
    expect([...reached].some((file) => file.startsWith("undici-transport-"))).toBe(true);
    const packages = [...reached].flatMap((file) => importsOf(file).packages);
    expect(packages.filter((name) => /^(h3|listhen|lowdb|zod)(\/|$)/.test(name))).toEqual([]);
  });

  it("starts without the HTTP client or the prompt library: they load when a command first needs them", () => {
    const staticImports = (file: string): string[] => {
      const text = readFileSync(join(dist, file), "utf8");
      return [...text.matchAll(/(?:from\s*|import\s+)"([^"]+)"/g)].map((match) => match[1]!);
    };
    const reached = new Set<string>();
    const queue = ["cli.cjs"];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      queue.push(...staticImports(file).filter((name) => name.startsWith("./")).map((name) => name.slice(2)));
    }
    // undici and the prompt library are bundled: their sources, by path, must not be in what start-up loads.
    const heavy = (file: string) => /\/undici\/lib\/|\/@clack\//.test(readFileSync(join(dist, file), "utf8"));
    expect([...reached].filter(heavy)).toEqual([]);
    expect([...reached].some((file) => file.startsWith("undici-transport-"))).toBe(false);
  });
});
