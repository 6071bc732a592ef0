// Start-up is most of a client command's time (bench scenario 5), and much of it is evaluating
// Node built-ins. The build leaves out what no command uses at start (scripts/build.mjs): undici's
// HTTP/2 client with node:http2 and node:tls, and commander's node:child_process. A preload records
// the built-ins the built CLI evaluated; node:http shows the recording sees what undici does load.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, startServeProcess, type ServeProcess } from "../helpers/serve-process.js";

const PRELOAD = fileURLToPath(new URL("./record-builtins.mjs", import.meta.url));
const LEFT_OUT = ["http2", "tls", "child_process", "dgram"];

let server: ServeProcess;
let dir: string;
beforeAll(async () => {
  server = await startServeProcess();
  dir = await mkdtemp(join(tmpdir(), "petstore-lean-"));
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

async function builtinsOf(args: string[]): Promise<{ builtins: string[]; status: number | null; stdout: string }> {
  const record = join(dir, `${args.join("-")}.txt`);
  const env = {
    ...process.env,
    NO_COLOR: "1",
    PETSTORE_RECORD_BUILTINS: record,
    PETSTORE_CONFIG: join(dir, "no-config.json"),
    PETSTORE_BASE_URL: server.baseUrl,
    PETSTORE_API_KEY: server.adminKey,
  };
  const run = spawnSync(process.execPath, ["--import", PRELOAD, BIN, ...args], { env, encoding: "utf8" });
  const builtins = (await readFile(record, "utf8")).split("\n").filter(Boolean);
  return { builtins, status: run.status, stdout: run.stdout };
}

describe("the client's start-up evaluates only the built-ins it uses", () => {
  it("pets list --json: HTTP/1.1 over node:net and node:http, without http2, tls or child_process", async () => {
    const run = await builtinsOf(["pets", "list", "--json"]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(run.builtins).toEqual(expect.arrayContaining(["net", "http"]));
    expect(run.builtins.filter((name) => LEFT_OUT.includes(name))).toEqual([]);
  });

  it("--help: without child_process", async () => {
    const run = await builtinsOf(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Usage: petstore");
    expect(run.builtins.filter((name) => LEFT_OUT.includes(name))).toEqual([]);
  });
});
