// `petstore pets ...` in process against the real app: listing (TSV, table, JSON, search, sort,
// pages), add, get with its deprecation notice, and update/delete with ETags.
import { stripVTControlCharacters } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { startWorld } from "./world.js";

const ESC = "\u001b[";
let world: Awaited<ReturnType<typeof startWorld>>;
const petstore: typeof world.run = (argv, options) => world.run(argv, options);

beforeAll(async () => {
  world = await startWorld();
  // Five pets, created one after the other so their ids are 1..5.
  const seed = [
    ["Rex", "1", "available"],
    ["Tom", "2", "pending"],
    ["Kit", "2", "sold"],
    ["Max", "1", "available"],
    ["Bob", "3", "available"],
  ];
  for (const [name, category, status] of seed) {
    const result = await petstore(["pets", "add", "--name", name!, "--category", category!, "--status", status!]);
    expect(result.code).toBe(0);
  }
});

const rows = ["1\tRex\t1\tavailable", "2\tTom\t2\tpending", "3\tKit\t2\tsold", "4\tMax\t1\tavailable", "5\tBob\t3\tavailable"];

describe("pets list", () => {
  it("prints tab-separated lines, no header, no colour, when stdout is not a TTY", async () => {
    const result = await petstore(["pets", "list"]);
    expect(result).toEqual({ code: 0, stdout: `${rows.join("\n")}\n`, stderr: "" });
  });

  it("prints a table with ID, NAME, CATEGORY, STATUS and coloured statuses on a TTY", async () => {
    const result = await petstore(["pets", "list"], { tty: true });
    expect(result.code).toBe(0);
    const lines = stripVTControlCharacters(result.stdout).split("\n");
    expect(lines[0]?.split(/\s+/)).toEqual(["ID", "NAME", "CATEGORY", "STATUS"]);
    expect(lines[1]).toMatch(/^1\s+Rex\s+1\s+available$/);
    expect(result.stdout).toContain(`${ESC}32mavailable${ESC}39m`);
    expect(result.stdout).toContain(`${ESC}33mpending${ESC}39m`);
    expect(result.stdout).toContain(`${ESC}31msold${ESC}39m`);
  });

  it.each([
    ["NO_COLOR", [], { NO_COLOR: "1" }],
    ["--no-color", ["--no-color"], {}],
  ] as const)("prints the table without colour under %s", async (_name, flags, env) => {
    const result = await petstore(["pets", "list", ...flags], { tty: true, env });
    expect(result.stdout).toMatch(/^ID\s+NAME\s+CATEGORY\s+STATUS\n1\s+Rex/);
    expect(result.stdout).not.toContain(ESC);
  });

  it("prints a JSON array of Pet with --json", async () => {
    const result = await petstore(["pets", "list", "--json"], { tty: true });
    expect(JSON.parse(result.stdout)).toEqual([
      { id: 1, name: "Rex", categoryId: 1, status: "available" },
      { id: 2, name: "Tom", categoryId: 2, status: "pending" },
      { id: 3, name: "Kit", categoryId: 2, status: "sold" },
      { id: 4, name: "Max", categoryId: 1, status: "available" },
      { id: 5, name: "Bob", categoryId: 3, status: "available" },
    ]);
  });

  it("filters by --status and stops at --limit, saying on stderr that more exist", async () => {
    expect((await petstore(["pets", "list", "--status", "available"])).stdout).toBe(`${[rows[0], rows[3], rows[4]].join("\n")}\n`);
    const limited = await petstore(["pets", "list", "--limit", "2"]);
    expect(limited.stdout).toBe(`${rows.slice(0, 2).join("\n")}\n`);
    expect(limited.stderr).toBe("Showing the first 2 pets; more exist: raise --limit, or use --all.\n");
    expect((await petstore(["pets", "list", "--limit", "5"])).stderr).toBe("");
  });

  it("fetches every pet with --all, in pages of 100", async () => {
    const result = await petstore(["pets", "list", "--all", "--verbose"]);
    expect(result.stdout).toBe(`${rows.join("\n")}\n`);
    expect(result.stderr.match(/^> GET .*\/pets\?limit=100$/gm)).toHaveLength(1);
    const filtered = await petstore(["pets", "list", "--all", "--status", "available"]);
    expect(filtered.stdout).toBe(`${[rows[0], rows[3], rows[4]].join("\n")}\n`);
  });
});

describe("pets list --search and --sort", () => {
  it("finds names containing the text in any case, in the order asked", async () => {
    expect(await petstore(["pets", "list", "--search", "REX"])).toEqual({ code: 0, stdout: `${rows[0]}\n`, stderr: "" });
    expect((await petstore(["pets", "list", "--search", "x", "--sort", "name"])).stdout).toBe(`${rows[3]}\n${rows[0]}\n`);
    expect((await petstore(["pets", "list", "--sort", "name"])).stdout).toBe(`${[4, 2, 3, 0, 1].map((i) => rows[i]).join("\n")}\n`);
    expect((await petstore(["pets", "list", "--sort", "-id", "--status", "available"])).stdout).toBe(`${[4, 3, 0].map((i) => rows[i]).join("\n")}\n`);
    const json = await petstore(["pets", "list", "--search", "o", "--sort", "-name", "--json"]);
    expect(JSON.parse(json.stdout).map((pet: { name: string }) => pet.name)).toEqual(["Tom", "Bob"]);
  });

  it("takes -name as the value of --sort, and stops at --limit saying more exist", async () => {
    const result = await petstore(["pets", "list", "--sort", "-name", "--limit", "2"]);
    expect(result).toEqual({
      code: 0,
      stdout: `${rows[1]}\n${rows[0]}\n`,
      stderr: "Showing the first 2 pets; more exist: raise --limit, or use --all.\n",
    });
    expect((await petstore(["pets", "list", "--sort=-name", "--limit", "1"])).stdout).toBe(`${rows[1]}\n`);
  });

  it("prints nothing and exits 0 when no name contains the text", async () => {
    expect(await petstore(["pets", "list", "--search", "zzz"])).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it.each([
    ["--sort age", ["--sort", "age"], "Error: option '--sort <order>' argument 'age' is invalid. Allowed choices are id, -id, name, -name."],
    ["an empty --search", ["--search", ""], "Error: --search must not be empty"],
    ["--search of 201 characters", ["--search", "é".repeat(201)], "Error: --search must be at most 200 characters"],
  ])("%s: exit 2 before any request", async (_case, flags, message) => {
    const sent = world.api.requests.length;
    const result = await petstore(["pets", "list", ...flags]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
    expect(world.api.requests).toHaveLength(sent);
  });
});

describe("pets list --all --sort over many pages", () => {
  let many: Awaited<ReturnType<typeof startWorld>>;
  const names = Array.from({ length: 230 }, (_, i) => `Pet ${String((i * 97) % 230).padStart(3, "0")}${i % 7 === 0 ? " Rex" : ""}`);

  beforeAll(async () => {
    many = await startWorld();
    await many.seedPets(names.map((name) => ({ name, categoryId: 1 })));
  });

  const list = (args: string[]) => many.run(["pets", "list", ...args]);
  const namesOf = (stdout: string) => stdout.trimEnd().split("\n").map((line) => line.split("\t")[1]);

  it("follows the Link by name: every pet once, in order, across pages of 100", async () => {
    const byName = [...names].sort();
    const result = await list(["--all", "--sort", "name", "--verbose"]);
    expect(result.code).toBe(0);
    expect(namesOf(result.stdout)).toEqual(byName);
    expect(result.stderr.match(/^> GET .*\/pets\?limit=100&sort=name&cursor=[\w-]+$/gm)).toHaveLength(2);
    expect(namesOf((await list(["--all", "--sort", "-name"])).stdout)).toEqual([...byName].reverse());
  });

  it("combines --search with --sort, --limit past one page, and --all", async () => {
    const rex = names.filter((name) => name.endsWith(" Rex")).sort().reverse();
    expect(rex).toHaveLength(33);
    expect(namesOf((await list(["--search", "REX", "--sort", "-name", "--all"])).stdout)).toEqual(rex);
    const result = await list(["--search", "pet", "--sort", "-name", "--limit", "150", "--verbose"]);
    expect(result.code).toBe(0);
    expect(namesOf(result.stdout)).toEqual([...names].sort().reverse().slice(0, 150));
    expect(result.stderr.match(/^> GET .*\/pets\?.*$/gm)).toEqual([
      expect.stringMatching(/\/pets\?(?=.*q=pet)(?=.*sort=-name)(?=.*limit=100)/),
      expect.stringMatching(/\/pets\?limit=50&q=pet&sort=-name&cursor=[\w-]+$/),
    ]);
    expect(result.stderr).toContain("Showing the first 150 pets; more exist: raise --limit, or use --all.\n");
  });
});

describe("pets add", () => {
  it("prints the created pet as a line, or the Pet object with --json", async () => {
    const line = await petstore(["pets", "add", "--name", "Zed", "--category", "9"]);
    expect(line.code).toBe(0);
    expect(line.stdout).toMatch(/^\d+\tZed\t9\tavailable\n$/);
    const json = await petstore(["pets", "add", "--name", "Ann", "--category", "4", "--status", "sold", "--json"]);
    const pet = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(pet).toEqual({ id: expect.any(Number), name: "Ann", categoryId: 4, status: "sold" });
    const got = await petstore(["pets", "get", String(pet.id), "--json"]);
    expect(JSON.parse(got.stdout)).toEqual(pet);
  });

  it("stops a bad category before any request, with exit code 2", async () => {
    const sent = world.api.requests.length;
    const result = await petstore(["pets", "add", "--name", "Rex", "--category", "one"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: --category must be an integer from 1 to 9007199254740991, got "one"');
    expect(world.api.requests).toHaveLength(sent);
  });
});

describe("pets get", () => {
  const notice =
    "Warning: `pets get` (GET /pets/{id}) is deprecated; it goes away on 2030-12-05.\n";

  it("prints the pet and one notice, one line naming the removal date", async () => {
    expect(await petstore(["pets", "get", "2"])).toEqual({ code: 0, stdout: "2\tTom\t2\tpending\n", stderr: notice });
  });

  it("prints a one-row table on a TTY", async () => {
    const result = await petstore(["pets", "get", "2", "--no-color"], { tty: true });
    expect(result.stdout).toMatch(/^ID\s+NAME\s+CATEGORY\s+STATUS\n2\s+Tom\s+2\s+pending\n$/);
  });

  it("exits 4 for an unknown id", async () => {
    const result = await petstore(["pets", "get", "999"]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^Error: .+ \(not_found, HTTP 404\)$/m);
  });

  it("exits 2 for an id that is not an integer", async () => {
    const result = await petstore(["pets", "get", "two"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: <id> must be an integer/);
  });
});

describe("pets update and delete against the server, with ETags", () => {
  const quiet = { env: { PETSTORE_NO_DEPRECATION_NOTICE: "1" } };
  const etagOf = (stderr: string) => /^ {2}ETag: (".+")$/m.exec(stderr)?.[1];

  it("changes only the fields given, prints the pet, and shows the new ETag with --verbose on stderr", async () => {
    const added = JSON.parse((await petstore(["pets", "add", "--name", "Upd", "--category", "1", "--json"])).stdout) as { id: number };
    const id = String(added.id);
    const got = await petstore(["pets", "get", id, "--json", "--verbose"], quiet);
    expect(JSON.parse(got.stdout)).toEqual({ id: added.id, name: "Upd", categoryId: 1, status: "available" });
    const before = etagOf(got.stderr);
    expect(before).toMatch(/^"pet-\d+-\d+"$/);
    expect(got.stdout).not.toContain("ETag");

    const updated = await petstore(["pets", "update", id, "--status", "sold", "--if-match", before!, "--verbose"]);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toBe(`${id}\tUpd\t1\tsold\n`);
    const after = etagOf(updated.stderr);
    expect(after).not.toBe(before);

    // The old ETag no longer matches: nothing changes, exit 1, and the hint says how to go on.
    const stale = await petstore(["pets", "update", id, "--name", "Gone", "--if-match", before!]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/\(precondition_failed, HTTP 412\)\nThe pet changed since that ETag was read\. To go on, fetch it again/);
    const staleDelete = await petstore(["pets", "delete", id, "--yes", "--if-match", before!]);
    expect(staleDelete.code).toBe(1);

    expect(await petstore(["pets", "delete", id, "--yes", "--if-match", after!])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect((await petstore(["pets", "get", id], quiet)).code).toBe(4);
  });

  it("succeeds, exit 0, when the pet already has the values given (a script stating what a pet should be)", async () => {
    const added = JSON.parse((await petstore(["pets", "add", "--name", "Done", "--category", "1", "--status", "sold", "--json"])).stdout) as { id: number };
    const id = String(added.id);
    const again = await petstore(["pets", "update", id, "--status", "sold", "--verbose"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${id}\tDone\t1\tsold\n`);
    expect(etagOf(again.stderr)).toBe(`"pet-${id}-1"`);
  });

  it("refuses an update with nothing to change or a bad value before sending, exit 2", async () => {
    const sent = world.api.requests.length;
    for (const args of [[], ["--name", ""], ["--category", "x"], ["--status", "lost"]]) {
      const result = await petstore(["pets", "update", "1", ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
    }
    expect(world.api.requests).toHaveLength(sent);
  });
});
