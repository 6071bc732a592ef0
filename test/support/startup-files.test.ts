// Start-up is most of a client command's time (bench scenario 5), and much of that was Node's ESM
// loader and the files it opened: cli.js and 20 chunks for --help, 16 files for `pets list`. The
// build now makes one CommonJS file for start-up and one for undici (scripts/build/two-part-bundle.mjs).
// A preload records what the built CLI loaded; a command that imports an ESM chunk shows it sees the loader.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, startServeProcess, type ServeProcess } from "../helpers/serve-process.js";

const PRELOAD = fileURLToPath(new URL("./record-loads.cjs", import.meta.url));
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
const ESM_LOADER = "internal/modules/esm/loader";

let server: ServeProcess;
let dir: string;
beforeAll(async () => {
  server = await startServeProcess();
  dir = await mkdtemp(join(tmpdir(), "petstore-startup-"));
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

async function loadsOf(args: string[]): Promise<{ builtins: string[]; distFiles: string[]; status: number | null; stdout: string }> {
  const record = join(dir, `${args.join("-")}.json`);
  const env = {
    ...process.env,
    NO_COLOR: "1",
    PETSTORE_RECORD_LOADS: record,
    PETSTORE_CONFIG: join(dir, "no-config.json"),
    PETSTORE_BASE_URL: server.baseUrl,
    PETSTORE_API_KEY: server.adminKey,
  };
  const run = spawnSync(process.execPath, ["--require", PRELOAD, BIN, ...args], { env, encoding: "utf8" });
  const { builtins, files } = JSON.parse(await readFile(record, "utf8")) as { builtins: string[]; files: string[] };
  const distFiles = files.filter((file) => file.startsWith(DIST)).map((file) => basename(file).replace(/-[A-Z0-9]{8}\./, "-HASH."));
  return { builtins, distFiles, status: run.status, stdout: run.stdout };
}

describe("the client's start-up files", () => {
  it("--help: dist/cli.cjs alone, without the ESM loader", async () => {
    const run = await loadsOf(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Usage: petstore");
    expect(run.distFiles).toEqual(["cli.cjs"]);
    expect(run.builtins).not.toContain(ESM_LOADER);
  });

  it("--help piped: none of node:net, node:tty, node:stream, node:fs/promises (stdout is written with fs.writeSync)", async () => {
    const run = await loadsOf(["--help"]);
    expect(run.stdout).toContain("Usage: petstore");
    expect(run.builtins.filter((name) => ["net", "tty", "stream", "fs/promises", "readline"].includes(name))).toEqual([]);
  });

  it("pets list --json: cli.cjs and undici's file, without the ESM loader", async () => {
    const run = await loadsOf(["pets", "list", "--json"]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(run.distFiles).toEqual(["cli.cjs", "undici-transport-HASH.cjs"]);
    expect(run.builtins).not.toContain(ESM_LOADER);
  });

  it("a command whose work is an ESM chunk (the bash completion script) does start the ESM loader", async () => {
    const run = await loadsOf(["completion", "bash"]);
    expect(run.status).toBe(0);
    expect(run.builtins).toContain(ESM_LOADER);
  });
});
