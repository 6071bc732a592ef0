import { describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import type { Command } from "commander";
import { createProgram, main } from "../../src/cli/main.js";
import { inMemoryApi } from "./helpers/in-memory-api.js";
import { createTestContext } from "./helpers/test-context.js";

// Any request at all is counted: a usage error must send none.
const api = inMemoryApi([{ status: 200, body: [] }]);

async function run(argv: string[], env: Record<string, string> = {}) {
  const test = createTestContext({ api, env: { PETSTORE_BASE_URL: "http://127.0.0.1:3999/v1", PETSTORE_CONFIG: "/nonexistent/petstore.json", ...env } });
  const code = await main(argv, test.ctx);
  return { code, stdout: test.stdout(), stderr: test.stderr() };
}

/** Every command a person runs (no group, not the hidden completion helper), read from the tree. */
function leafCommands(): string[] {
  const program = createProgram(createTestContext().ctx, () => {}, ["completion"]);
  const walk = (command: Command, path: string[]): string[] =>
    command.commands.length === 0 ? [path.join(" ")] : command.commands.filter((sub) => !sub.name().startsWith("__")).flatMap((sub) => walk(sub, [...path, sub.name()]));
  return walk(program, []);
}

describe("petstore --help", () => {
  it("documents the exit codes and the environment variables", async () => {
    const { code, stdout } = await run(["--help"]);
    expect(code).toBe(0);
    for (const line of [
      /^ {2}0 {2}success$/m,
      /^ {2}1 {2}any other failure \(HTTP 400, 412 from --if-match, 5xx/m,
      /^ {2}2 {2}usage error/m,
      /^ {2}3 {2}not authenticated or not allowed \(HTTP 401, 403\)$/m,
      /^ {2}4 {2}not found \(HTTP 404\)$/m,
      /^ {2}5 {2}still rate-limited after the retries \(HTTP 429\)$/m,
      /^ {2}6 {2}server unreachable, or no answer within --timeout$/m,
    ]) {
      expect(stdout).toMatch(line);
    }
    for (const name of ["PETSTORE_BASE_URL", "PETSTORE_ENV", "PETSTORE_API_KEY", "PETSTORE_CONFIG", "NO_COLOR"]) {
      expect(stdout).toMatch(new RegExp(`^ {2}${name} `, "m"));
    }
    for (const flag of ["--base-url <url>", "--env <name>", "--api-key <key>", "--json", "--timeout <ms>", "--retries <n>", "--verbose", "--no-color"]) {
      expect(stdout).toContain(flag);
    }
  });

  it.each(leafCommands())("%s --help shows an example", async (command) => {
    const { code, stdout } = await run([...command.split(" "), "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\nExamples:\n {2}\$ .*petstore /);
  });

  it("prints the version", async () => {
    expect(await run(["--version"])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });
});

describe("global options", () => {
  it("are listed once, in petstore --help, in two groups", async () => {
    const { stdout } = await run(["--help"]);
    expect(stdout).toMatch(/^Connection options \(the commands that call the API\):\n {2}--base-url <url> /m);
    expect(stdout).toMatch(/^Output options:\n {2}--json /m);
    expect(stdout).not.toContain("Global Options:");
  });

  it.each(leafCommands())("%s --help has one line pointing there instead of the block", async (command) => {
    const { code, stdout } = await run([...command.split(" "), "--help"]);
    expect(code).toBe(0);
    expect(stdout).not.toContain("--base-url <url>");
    expect(stdout).not.toContain("Global Options:");
    expect(stdout.match(/^Global options \(petstore --help\): .*--color$/gm)).toHaveLength(1);
  });

  it("pets add --help is short, and serve --help lists none of the client's flags", async () => {
    expect((await run(["pets", "add", "--help"])).stdout.split("\n").length).toBeLessThanOrEqual(22);
    const serve = (await run(["serve", "--help"])).stdout;
    for (const flag of ["--api-key", "--json", "--retries", "--base-url", "--no-pager"]) expect(serve).not.toContain(flag);
    expect(serve).toMatch(/^Global options \(petstore --help\): --color$/m);
  });

  it.each([
    [["serve", "--api-key", "ps_x"], "`petstore serve` does not take --api-key: it is for the commands that call the API"],
    [["serve", "--json"], "`petstore serve` does not take --json"],
    [["serve", "--retries", "3"], "`petstore serve` does not take --retries"],
    [["--json", "serve"], "`petstore serve` does not take --json"],
    [["openapi", "--base-url", "http://x/v1"], "`petstore openapi` does not take --base-url"],
    [["completion", "bash", "--verbose"], "`petstore completion` does not take --verbose"],
    [["pets", "add", "--name", "Rex", "--category", "1", "--no-pager"], "`petstore pets add` does not take --no-pager: it is for the commands that print lists"],
    [["config", "path", "--env", "staging"], "`petstore config path` does not take --env"],
    [["config", "set", "base-url", "http://x/v1", "--api-key", "ps_x"], "`petstore config set` does not take --api-key"],
    [["db", "export", "--db", "x.json", "--timeout", "5"], "`petstore db export` does not take --timeout"],
  ])("%j is refused with exit 2 before anything runs", async (argv, message) => {
    const before = api.requests.length;
    const { code, stdout, stderr } = await run(argv);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toMatch(/^Error: /);
    expect(stderr).toContain(message);
    expect(stderr).toContain("(run with --help for usage)");
    expect(api.requests.length).toBe(before);
  });

  it("are taken where they are used, before or after the command", async () => {
    expect((await run(["--no-pager", "--json", "pets", "list"])).code).toBe(0);
    expect((await run(["pets", "list", "--no-pager", "--color", "never", "--retries", "0"])).code).toBe(0);
    expect((await run(["config", "path", "--no-color"])).code).toBe(0);
  });
});

describe("usage errors stop before any request, with exit code 2", () => {
  it.each([
    [["pets", "list", "--limit", "0"], '--limit must be an integer from 1 to 9007199254740991, got "0"'],
    [["pets", "list", "--limit", "-5"], "--limit must be an integer from 1"],
    [["pets", "list", "--limit", "ten"], "--limit must be an integer"],
    [["pets", "list", "--status", "lost"], "argument 'lost' is invalid. Allowed choices are available, pending, sold."],
    [["pets", "list", "--sort", "age"], "argument 'age' is invalid. Allowed choices are id, -id, name, -name."],
    [["pets", "list", "--sort", "Name"], "Allowed choices are id, -id, name, -name."],
    [["pets", "list", "--search", ""], "--search must not be empty"],
    [["pets", "list", "--search", "é".repeat(201)], "--search must be at most 200 characters"],
    [["pets", "add", "--name", "Rex", "--category", "x"], '--category must be an integer from 1 to 9007199254740991, got "x"'],
    [["pets", "add", "--name", "Rex", "--category", "1.5"], "--category must be an integer"],
    [["pets", "add", "--name", "Rex", "--category", "0"], "--category must be an integer from 1"],
    [["pets", "add", "--name", " ", "--category", "1"], "--name must not be empty"],
    [["pets", "add", "--name", "x".repeat(201), "--category", "1"], "--name must be at most 200 characters"],
    [["pets", "add", "--category", "1"], "required option '--name <name>' not specified"],
    [["pets", "add", "--name", "Rex", "--category", "1", "--status", "gone"], "Allowed choices are available, pending, sold."],
    [["pets", "get", "abc"], '<id> must be an integer from 1 to 9007199254740991, got "abc"'],
    [["pets", "get", "0"], "<id> must be an integer from 1"],
    [["pets", "get", "1e3"], "<id> must be an integer"],
    [["keys", "create", "--plan", "gold"], "argument 'gold' is invalid. Allowed choices are free, pro, business, enterprise."],
    [["keys", "create"], "required option '--plan <plan>' not specified"],
    [["keys", "create", "--plan", "enterprise", "--per-minute", "5"], "--plan enterprise needs both --per-minute and --per-day"],
    [["keys", "create", "--plan", "pro", "--per-minute", "5", "--per-day", "9"], "--per-minute and --per-day are only for --plan enterprise"],
    [["keys", "create", "--plan", "enterprise", "--per-minute", "0", "--per-day", "9"], "--per-minute must be an integer from 1"],
    [["keys", "revoke"], "missing required argument 'id'"],
    [["pets", "list", "--timeout", "0"], "--timeout must be an integer from 1"],
    [["pets", "list", "--retries", "many"], "--retries must be an integer from 0 to 20"],
    [["pets", "list", "--base-url", "ftp://x/v1"], "the base URL must be an http or https URL"],
    [["pets", "list", "--env", "nosuch"], 'no environment "nosuch" in /nonexistent/petstore.json'],
    [["config", "set", "colour", "red"], "value 'colour' is invalid for argument 'key'. Allowed choices are base-url, api-key, deprecation-notices, ca-cert."],
    [["config", "set", "base-url", "localhost:3000"], 'base-url must be an http or https URL, got "localhost:3000"'],
    [["completion", "powershell"], "Allowed choices are bash, zsh, fish."],
    [["serve", "--cert", "cert.pem"], "--cert and --key go together"],
    [["pets", "add", "--name", "é".repeat(201), "--category", "1"], "--name must be at most 200 characters"],
    [["keys", "create", "--plan", "free", "--name", "🔑".repeat(101)], "--name must be at most 100 characters"],
    [["keys", "create", "--plan", "free", "--scopes", "pets:read,keys:write"], '--scopes: unknown scope "keys:write"; the scopes are pets:read, pets:write, orders:read, orders:write, events:read'],
    [["keys", "create", "--scopes", "pets:reed"], '--scopes: unknown scope "pets:reed"'],
    [["keys", "create", "--plan", "free", "--scopes", ""], "--scopes needs at least one scope"],
    [["keys", "create", "--plan", "free", "--scopes", "pets:read,,events:read"], "--scopes has an empty item"],
    [["pets", "fly"], "unknown command 'fly'"],
    [["pets", "list", "--colour"], "unknown option '--colour'"],
  ])("%j", async (argv, message) => {
    const before = api.requests.length;
    const { code, stdout, stderr } = await run(argv);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toMatch(/^Error: /);
    expect(stderr).toContain(message);
    expect(stderr).toContain("(run with --help for usage)");
    expect(api.requests.length).toBe(before);
  });
});

describe("a bare petstore", () => {
  it("prints the whole help on stdout and exits 0", async () => {
    const { code, stdout, stderr } = await run([]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: petstore /);
    expect(stdout).toContain("Exit codes:");
    expect(stderr).toBe("");
  });
});

describe("aliases", () => {
  it.each([
    [["pets", "create", "--help"], "Usage: petstore pets add|create"],
    [["pets", "ls", "--help"], "Usage: petstore pets list|ls"],
    [["keys", "ls", "--help"], "Usage: petstore keys list|ls"],
    [["keys", "rm", "--help"], "Usage: petstore keys revoke|rm"],
    [["config", "ls", "--help"], "Usage: petstore config list|ls"],
  ])("%j names the verb it stands for", async (argv, usage) => {
    const { code, stdout } = await run(argv);
    expect(code).toBe(0);
    expect(stdout).toContain(usage);
  });
});
