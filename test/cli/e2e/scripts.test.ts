// The client for scripts, as a script runs it: `petstore api`, `--json` fields and `--jq`,
// `pets export`, and `pets import` of bad, odd and large files, against the real server.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { runCli, type RunOptions } from "../helpers/run-cli.js";

let server: ServeProcess;
let dir: string;

beforeAll(async () => {
  server = await startServeProcess();
  dir = await mkdtemp(join(tmpdir(), "petstore-scripts-"));
  for (const [name, category, status] of [["Rex", "1", "available"], ["Tom", "2", "pending"], ["Kit", "2", "sold"]]) {
    expect((await petstore(["pets", "add", "--name", name!, "--category", category!, "--status", status!])).code).toBe(0);
  }
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const petstore = (args: string[], options: RunOptions = {}) =>
  runCli(args, { ...options, env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey, ...options.env } });

/** The server's own count of pets, from the inventory. */
async function petCount(): Promise<number> {
  const response = await fetch(`${server.baseUrl}/store/inventory`, { headers: { authorization: `Bearer ${server.adminKey}` } });
  const inventory = (await response.json()) as Record<string, number>;
  return Object.values(inventory).reduce((sum, n) => sum + n, 0);
}

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe("petstore api", () => {
  it("GETs a path under the base URL and prints the JSON body", async () => {
    const result = await petstore(["api", "pets/1"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: 1, name: "Rex", categoryId: 1, status: "available" });
  });

  it("sends -f as strings and -F typed in a POST body, and -i prints the status line and headers", async () => {
    const result = await petstore(["api", "/pets", "-f", "name=Api", "-F", "categoryId=7", "-i"]);
    expect(result.code).toBe(0);
    const [head, body] = result.stdout.split("\n\n");
    expect(head).toMatch(/^HTTP\/1.1 201\n/);
    expect(head).toMatch(/\nlocation: .*\/pets\/\d+/);
    expect(JSON.parse(body!)).toMatchObject({ name: "Api", categoryId: 7, status: "available" });
  });

  it("puts fields in the query of a GET, sends -H headers and -X methods", async () => {
    const list = await petstore(["api", "/pets", "-X", "GET", "-f", "status=pending"]);
    expect(JSON.parse(list.stdout)).toEqual([{ id: 2, name: "Tom", categoryId: 2, status: "pending" }]);
    const patch = await petstore(["api", "/pets/2", "-X", "PATCH", "-f", "status=sold", "-H", "Content-Type: application/merge-patch+json", "-H", 'If-Match: "pet-2-0"']);
    expect(patch.code).toBe(1);
    expect(patch.stderr).toContain("HTTP 412");
  });

  it("reads the body from --input - (stdin) and from a file", async () => {
    const stdin = await petstore(["api", "/pets", "--input", "-"], { input: '{"name":"Stdin","categoryId":3}' });
    expect(JSON.parse(stdin.stdout)).toMatchObject({ name: "Stdin", categoryId: 3 });
    const path = await file("body.json", '{"name":"Filed","categoryId":4}');
    expect(JSON.parse((await petstore(["api", "/pets", "--input", path])).stdout)).toMatchObject({ name: "Filed" });
  });

  it("follows Link rel=next with --paginate and prints one array", async () => {
    const result = await petstore(["api", "/pets?limit=2", "--paginate"]);
    const pets = JSON.parse(result.stdout) as { id: number }[];
    expect(pets.map((pet) => pet.id)).toEqual([...Array(pets.length).keys()].map((i) => i + 1));
    expect(pets.length).toBe(await petCount());
  });

  it.each<[string[], number, Record<string, string>?]>([
    [["api", "/pets/999999"], 4],
    [["api", "/pets"], 3, { PETSTORE_API_KEY: "ps_not_a_real_key_0000000000" }],
    [["api", "/pets"], 6, { PETSTORE_BASE_URL: "http://127.0.0.1:9/v1" }],
    [["api", "/pets", "-X", "PUT"], 2],
    [["api", "/pets", "-f", "novalue"], 2],
    [["api", "/pets", "--input", "-"], 2],
    [["api", "/pets", "-i", "--jq", "."], 2],
  ])("exits as every command does: %j -> %i", async (args, code, env = {}) => {
    expect((await petstore(args, { env, input: "not json" })).code).toBe(code);
  });
});

describe("--json fields and --jq", () => {
  it("keeps only the named fields, and plain --json as it was", async () => {
    const picked = await petstore(["pets", "list", "--json", "id,name", "--limit", "2"]);
    expect(JSON.parse(picked.stdout)).toEqual([{ id: 1, name: "Rex" }, { id: 2, name: "Tom" }]);
    expect(JSON.parse((await petstore(["pets", "get", "3", "--json", "status"])).stdout)).toEqual({ status: "sold" });
    expect(JSON.parse((await petstore(["--json", "pets", "list", "--limit", "1"])).stdout)).toEqual([{ id: 1, name: "Rex", categoryId: 1, status: "available" }]);
  });

  it("refuses an unknown field with exit 2, listing the valid ones, before any request", async () => {
    const result = await petstore(["pets", "list", "--json", "id,nam"], { env: { PETSTORE_BASE_URL: "http://127.0.0.1:9/v1" } });
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toContain("unknown field nam; the fields of `pets list` are: id, name, categoryId, status");
  });

  it("filters through jq, strings raw as gh prints them", async () => {
    expect((await petstore(["pets", "list", "--limit", "3", "--jq", ".[].name"])).stdout).toBe("Rex\nTom\nKit\n");
    expect((await petstore(["api", "/pets/1", "--jq", ".categoryId"])).stdout).toBe("1\n");
  });

  it("refuses a bad jq expression with exit 2 before any request", async () => {
    const result = await petstore(["pets", "list", "--jq", ".["], { env: { PETSTORE_BASE_URL: "http://127.0.0.1:9/v1" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--jq: jq: error: syntax error");
  });
});

describe("pets export", () => {
  it("writes NDJSON, CSV and JSON without ids, with the filters", async () => {
    const ndjson = await petstore(["pets", "export", "--status", "sold"]);
    expect(ndjson.stdout).toBe('{"name":"Kit","categoryId":2,"status":"sold"}\n');
    const csv = await petstore(["pets", "export", "--format", "csv", "--category", "1"]);
    expect(csv.stdout).toBe("name,categoryId,status\nRex,1,available\n");
    const json = await petstore(["pets", "export", "--format", "json", "--status", "sold"]);
    expect(JSON.parse(json.stdout)).toEqual([{ name: "Kit", categoryId: 2, status: "sold" }]);
  });
});

describe("pets import", () => {
  it("reports every invalid record with its line and sends nothing (exit 2)", async () => {
    const before = await petCount();
    const path = await file("bad.ndjson", '{"name":"Ok","categoryId":1}\n{"name":"","categoryId":1}\nnot json\n\n{"name":"X","categoryId":0}\n');
    const result = await petstore(["pets", "import", path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "Error: 3 invalid records; nothing was sent (--skip-invalid sends the others):\n" +
        "  line 2: name: must not be empty\n  line 3: not JSON: not json\n  line 5: categoryId: must be at least 1\n",
    );
    expect(await petCount()).toBe(before);
  });

  it("sends the valid ones with --skip-invalid, and exits 1 since not all were created", async () => {
    const before = await petCount();
    const path = await file("some-bad.ndjson", '{"name":"Good","categoryId":1}\n{"name":"","categoryId":1}\n');
    const result = await petstore(["pets", "import", path, "--skip-invalid", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, created: 1, replayed: 0, skipped: [{ line: 2 }], failed: [] });
    expect(await petCount()).toBe(before + 1);
  });

  it("reads CSV with quotes, commas and newlines in names, and a re-run replays instead of creating", async () => {
    const before = await petCount();
    const path = await file("quoted.csv", 'name,categoryId,status\n"Rex, Jr.",1,available\n"The ""Boss""",2,\n"Two\nLines",3,sold\n');
    const first = await petstore(["pets", "import", path]);
    expect(first).toMatchObject({ code: 0, stdout: "" });
    expect(first.stderr).toContain("Imported 3 records: 3 created, 0 replayed, 0 skipped, 0 failed");
    const names = JSON.parse((await petstore(["pets", "list", "--all", "--json", "name"])).stdout) as { name: string }[];
    expect(names.map((pet) => pet.name)).toEqual(expect.arrayContaining(["Rex, Jr.", 'The "Boss"', "Two\nLines"]));
    const again = await petstore(["pets", "import", path]);
    expect(again.stderr).toContain("0 created, 3 replayed");
    expect(await petCount()).toBe(before + 3);
  });

  it("imports a file of 0 records as done (exit 0), in every format", async () => {
    for (const [name, text] of [["empty.ndjson", ""], ["empty.json", "[]"], ["empty.csv", "name,categoryId,status\n"]]) {
      const result = await petstore(["pets", "import", await file(name!, text!)]);
      expect(result).toMatchObject({ code: 0, stdout: "" });
      expect(result.stderr).toBe("Imported 0 records: 0 created, 0 replayed, 0 skipped, 0 failed\n");
    }
  });

  it("reads a JSON array from stdin with --format, and refuses an unknown extension", async () => {
    const result = await petstore(["pets", "import", "-", "--format", "json"], { input: '[\n  {"name":"A","categoryId":1},\n  {"name":"","categoryId":1}\n]' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("line 3: name: must not be empty");
    expect((await petstore(["pets", "import", await file("pets.txt", "")])).code).toBe(2);
  });

  it("draws a progress bar on a terminal, redrawn in place and cleared at the end", async () => {
    const path = await file("bar.ndjson", Array.from({ length: 20 }, (_, i) => `{"name":"Bar${i}","categoryId":1}\n`).join(""));
    const result = await petstore(["pets", "import", path], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("\r\u001b[2K[########################] 20/20 ");
    expect(result.stderr).toContain("\r\u001b[2KImported 20 records: 20 created");
    expect(result.stderr).not.toMatch(/\(10%\)/);
  });

  it("imports a 1 MB file, printing a line per 10% when stderr is not a terminal", async () => {
    const name = "x".repeat(190);
    const lines = Array.from({ length: 4600 }, (_, i) => JSON.stringify({ name: `${name}${i}`, categoryId: (i % 5) + 1 }));
    const text = `${lines.join("\n")}\n`;
    expect(text.length).toBeGreaterThan(1_000_000);
    const before = await petCount();
    const result = await petstore(["pets", "import", await file("big.ndjson", text)]);
    expect(result.code).toBe(0);
    expect(result.stderr.match(/^Imported \d+\/4600 \(\d+%\)$/gm)).toHaveLength(10);
    expect(await petCount()).toBe(before + 4600);
  }, 120_000);

  it("after an interruption, a re-run finishes the import and creates nothing twice", async () => {
    const lines = Array.from({ length: 600 }, (_, i) => JSON.stringify({ name: `Resume${i}`, categoryId: 9 }));
    const path = await file("resume.ndjson", `${lines.join("\n")}\n`);
    const before = await petCount();
    await killAfterFirstProgressLine(["pets", "import", path, "--concurrency", "2"]);
    const partial = await petCount();
    expect(partial - before).toBeGreaterThan(0);
    expect(partial - before).toBeLessThan(600);
    const result = await petstore(["pets", "import", path, "--json"], { env: { XDG_STATE_HOME: join(dir, "state") } });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { created: number; replayed: number; earlier: number };
    expect(report.created + report.replayed + report.earlier).toBe(600);
    // What the killed run noted is not sent again; what was in flight when it died is replayed
    // (a request or two may have landed after the count was taken).
    expect(report.earlier).toBeGreaterThan(0);
    expect(report.earlier + report.replayed).toBeGreaterThanOrEqual(partial - before);
    expect(report.earlier + report.replayed).toBeLessThanOrEqual(partial - before + 2);
    expect(await petCount()).toBe(before + 600);
  }, 60_000);
});

describe("pets import when the server dies under it", () => {
  it("stops at once (exit 6), says the server is unreachable and that a re-run resumes", async () => {
    const doomed = await startServeProcess();
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ name: `Doomed${i}`, categoryId: 1 }));
    const path = await file("doomed.ndjson", `${lines.join("\n")}\n`);
    const env = { PATH: process.env.PATH, HOME: dir, PETSTORE_CONFIG: join(dir, "none.json"), PETSTORE_BASE_URL: doomed.baseUrl, PETSTORE_API_KEY: doomed.adminKey };
    const child = spawn(process.execPath, [BIN, "pets", "import", path], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (/\(10%\)/.test(chunk)) void doomed.stop("SIGKILL");
    });
    const code = await new Promise<number | null>((resolve) => child.once("close", (exitCode) => resolve(exitCode)));
    expect(code).toBe(6);
    expect(stderr).not.toContain("quota");
    expect(stderr).toMatch(/^Stopped after \d+ of 3000 records: \d+ created, 0 replayed, 0 skipped, 0 failed, \d+ not sent$/m);
    expect(stderr).toMatch(/^Error: (connection refused by|request to) http:\/\/127\.0\.0\.1:\d+/m);
    expect(stderr).toMatch(/^The server is unreachable, so the import stopped with \d+ records not sent\. Run the same command again to resume/m);
    // Before, each of the 2,700 records left spent its own retries and a second: some 11 minutes.
  }, 30_000);
});

/** Runs the CLI and kills it (SIGKILL: no chance to tidy up) once it reports 10%. */
async function killAfterFirstProgressLine(args: string[]): Promise<void> {
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_STATE_HOME: join(dir, "state"),
    PETSTORE_CONFIG: join(dir, "none.json"),
    PETSTORE_BASE_URL: server.baseUrl,
    PETSTORE_API_KEY: server.adminKey,
  };
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      if (/\(10%\)/.test(chunk)) child.kill("SIGKILL");
    });
    child.once("close", () => resolve());
  });
}
