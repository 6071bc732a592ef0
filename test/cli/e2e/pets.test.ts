// `petstore pets ...` end to end: the built binary against `petstore serve`. The verb cases run
// in process against the real app in test/cli/verbs/pets.test.ts.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { runCli, type RunOptions } from "../helpers/run-cli.js";

let server: ServeProcess;

beforeAll(async () => {
  server = await startServeProcess();
  for (const [name, category, status] of [["Rex", "1", "available"], ["Tom", "2", "pending"]]) {
    expect((await petstore(["pets", "add", "--name", name!, "--category", category!, "--status", status!])).code).toBe(0);
  }
});
afterAll(() => server.stop());

const petstore = (args: string[], options: RunOptions = {}) =>
  runCli(args, { ...options, env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey, ...options.env } });

const rows = ["1\tRex\t1\tavailable", "2\tTom\t2\tpending"];
const notice = "Warning: `pets get` (GET /pets/{id}) is deprecated; it goes away on 2030-12-05.\n";

describe("pets end to end", () => {
  it("add, list, get, update, delete: lines on stdout, the exit codes a script checks", async () => {
    const added = await petstore(["pets", "add", "--name", "Zed", "--category", "9"]);
    expect(added).toMatchObject({ code: 0, stderr: "" });
    expect(added.stdout).toMatch(/^3\tZed\t9\tavailable\n$/);
    expect(await petstore(["pets", "list"])).toEqual({ code: 0, stdout: `${rows.join("\n")}\n3\tZed\t9\tavailable\n`, stderr: "" });
    expect(await petstore(["pets", "get", "3"])).toEqual({ code: 0, stdout: "3\tZed\t9\tavailable\n", stderr: notice });
    expect(await petstore(["pets", "update", "3", "--status", "sold"])).toEqual({ code: 0, stdout: "3\tZed\t9\tsold\n", stderr: "" });
    expect(await petstore(["pets", "delete", "3", "--yes"])).toEqual({ code: 0, stdout: "", stderr: "" });
    const gone = await petstore(["pets", "get", "3"]);
    expect(gone).toMatchObject({ code: 4, stdout: "" });
    expect(gone.stderr).toMatch(/^Error: .+ \(not_found, HTTP 404\)$/m);
    expect((await petstore(["pets", "add", "--name", "Rex", "--category", "one"])).code).toBe(2);
  });
});

describe("the pager", () => {
  // Needs a process: the pager is a shell command the CLI spawns, fed through a real pipe.
  it("takes a terminal's list output, and never piped output", async () => {
    const dir = await mkdtemp(join(tmpdir(), "petstore-pager-"));
    const file = join(dir, "paged.txt");
    const env = { PETSTORE_PAGER: `cat > '${file}'` };
    const paged = await petstore(["pets", "list", "--no-color"], { tty: true, env });
    expect(paged).toMatchObject({ code: 0, stdout: "" });
    expect((await readFile(file, "utf8")).split("\n")[0]).toMatch(/^ID\s+NAME\s+CATEGORY\s+STATUS$/);
    await rm(file);
    expect((await petstore(["pets", "list"], { env })).stdout).toBe(`${rows.join("\n")}\n`);
    expect((await petstore(["pets", "list", "--no-pager", "--no-color"], { tty: true, env })).stdout).toMatch(/^ID\s+NAME/);
    expect(existsSync(file)).toBe(false);
  });
});

describe("pets get", () => {
  // Needs a process: where the state file goes comes from the process's XDG_STATE_HOME, and its mode from the real file.
  it("shows the notice once a day, remembered in $XDG_STATE_HOME/petstore/state.json (mode 0600)", async () => {
    const stateHome = await mkdtemp(join(tmpdir(), "petstore-xdg-state-"));
    const env = { XDG_STATE_HOME: stateHome };
    expect((await petstore(["pets", "get", "2"], { env })).stderr).toBe(notice);
    expect((await petstore(["pets", "get", "2"], { env })).stderr).toBe("");
    expect((await stat(join(stateHome, "petstore", "state.json"))).mode & 0o777).toBe(0o600);
  });
});
