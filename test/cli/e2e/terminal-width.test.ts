// The built CLI on a terminal of 60 and 80 columns (a forced TTY, force-tty.mjs) against the real
// server, with CJK, emoji and joined-emoji names: every line fits, and the binary refuses a global
// option the command does not use.
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { displayWidth, loadDisplayWidth } from "../../../src/cli/output/text-width.js";
import { startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { runCli, type RunOptions } from "../helpers/run-cli.js";

let server: ServeProcess;
const NAMES = ["🐕‍🦺 服务犬 the service dog of the whole neighbourhood", "👨‍👩‍👧 家族の犬ポチ、とても長い名前の犬です", "Rex"];

beforeAll(async () => {
  await loadDisplayWidth();
  server = await startServeProcess();
  for (const name of NAMES) expect((await petstore(["pets", "add", "--name", name, "--category", "1"])).code).toBe(0);
});
afterAll(() => server.stop());

const petstore = (args: string[], options: RunOptions = {}) =>
  runCli(args, { ...options, env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey, ...options.env } });

function expectFits(text: string, columns: number): void {
  for (const line of text.split("\n").flatMap((part) => part.split("\r"))) {
    expect(displayWidth(line), JSON.stringify(stripVTControlCharacters(line))).toBeLessThanOrEqual(columns);
  }
  expect(text).not.toContain("\uFFFD");
}

describe.each([60, 80])("on a terminal of %i columns", (columns) => {
  it("pets list: a table that fits, names cut between graphemes, statuses aligned", async () => {
    const result = await petstore(["pets", "list", "--no-pager"], { tty: true, columns });
    expect(result.code).toBe(0);
    expectFits(result.stdout, columns);
    const lines = stripVTControlCharacters(result.stdout).trimEnd().split("\n");
    expect(lines).toHaveLength(NAMES.length + 1);
    expect(new Set(lines.map((line) => displayWidth(line.slice(0, line.search(/(STATUS|available)$/))))).size).toBe(1);
  });

  it("pets get: the pet, and the deprecation notice fitted (one line at 80)", async () => {
    const result = await petstore(["pets", "get", "1"], { tty: true, columns });
    expect(result.code).toBe(0);
    expectFits(result.stdout, columns);
    expectFits(result.stderr, columns);
    expect(stripVTControlCharacters(result.stderr)).toMatch(/^Warning: `pets get` \(GET \/pets\/\{id\}\) is deprecated/);
    if (columns === 80) expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("help fits, the global options once in petstore --help", async () => {
    for (const args of [["--help"], ["serve", "--help"], ["pets", "import", "--help"]]) {
      const result = await petstore(args, { tty: true, columns });
      expect(result.code).toBe(0);
      expectFits(result.stdout, columns);
    }
  });
});

describe("global options a command does not use", () => {
  it("serve --help lists none of the client's; serve --api-key is refused with exit 2 and a usage message", async () => {
    const help = await petstore(["serve", "--help"]);
    for (const flag of ["--api-key", "--json", "--retries"]) expect(help.stdout).not.toContain(flag);
    expect(help.stdout).toContain("Global options (petstore --help): --color\n");
    const refused = await petstore(["serve", "--api-key", "ps_x", "--port", "0"]);
    expect(refused).toEqual({
      code: 2,
      stdout: "",
      stderr: "Error: `petstore serve` does not take --api-key: it is for the commands that call the API; see `petstore serve --help`\n(run with --help for usage)\n",
    });
  });
});
