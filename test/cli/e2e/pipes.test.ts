// The built CLI writing into a pipe whose reader goes away after one line (`| head -1`): every
// command stops at its next write and exits 0 without a word, as `git log | head` does.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { tempHome } from "../helpers/run-cli.js";

let server: ServeProcess;
const LONG_NAME = "x".repeat(180);
const PETS = 1000;

beforeAll(async () => {
  server = await startServeProcess();
  // Ten pages of a hundred pets, some 26 kB each: far more than a pipe holds (64 KiB on Linux).
  for (let batch = 0; batch < PETS / 50; batch++) {
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => createPet(`${LONG_NAME}${batch * 50 + i}`)));
    expect(created.map((response) => response.status)).toEqual(Array(50).fill(201));
  }
}, 60_000);
afterAll(() => server.stop());

function createPet(name: string): Promise<Response> {
  return fetch(`${server.baseUrl}/pets`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
}

interface PipedRun {
  code: number | null;
  firstLine: string;
  stderr: string;
  /** Milliseconds from the reader's line (head then exits) to the CLI's exit. */
  exitAfterCloseMs: number;
}

/**
 * `petstore ARGS | head -1` in bash: a real pipe (spawn's own "pipe" is a socket pair, whose buffer
 * holds a whole large listing), head reading one line and exiting, and the CLI's exit status from
 * PIPESTATUS on the line after.
 */
async function intoHeadOne(args: string[], whileRunning?: () => Promise<unknown>): Promise<PipedRun> {
  const home = await tempHome();
  const env = { PATH: process.env.PATH ?? "", HOME: home, PETSTORE_CONFIG: `${home}/config.json`, PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey };
  const script = '"$0" "$@" | head -1; echo "exit=${PIPESTATUS[0]}"';
  // Its own process group, so that a CLI that never ends is killed with the shell.
  const child = spawn("bash", ["-c", script, process.execPath, BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  let lineAt: number | undefined;
  let exitAt: number | undefined;
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    if (lineAt === undefined && stdout.includes("\n")) lineAt = Date.now();
    if (exitAt === undefined && /^exit=/m.test(stdout)) exitAt = Date.now();
  });
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let running = true;
  void closed.then(() => (running = false));
  // Keeps something happening (events to print) until the CLI is gone, or 5 s at most.
  for (let round = 0; whileRunning && running && round < 25; round++) {
    await whileRunning();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const killer = setTimeout(() => process.kill(-(child.pid ?? 0), "SIGKILL"), 5_000);
  await closed;
  clearTimeout(killer);
  const code = /^exit=(\d+)$/m.exec(stdout)?.[1];
  return {
    code: code === undefined ? null : Number(code),
    firstLine: stdout.split("\n")[0] ?? "",
    stderr,
    exitAfterCloseMs: (exitAt ?? Number.POSITIVE_INFINITY) - (lineAt ?? 0),
  };
}

describe("a reader that goes after one line (| head -1)", () => {
  it("ends `petstore events` at its next event: exit 0, nothing on stderr", async () => {
    let n = 0;
    const result = await intoHeadOne(["events"], () => createPet(`live ${n++}`));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.firstLine)).toMatchObject({ type: "pet.created" });
    expect(result.stderr).toBe("");
    // The next event comes within 200 ms: the CLI is gone well before the 10 s it was given.
    expect(result.exitAfterCloseMs).toBeLessThan(5_000);
  }, 20_000);

  it("ends `petstore events --forward-to` too, whose stdout is its delivery records", async () => {
    const receiver = createServer((req, res) => req.resume().on("end", () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      let n = 0;
      const result = await intoHeadOne(["events", "--forward-to", url], () => createPet(`forwarded ${n++}`));
      expect(result.code).toBe(0);
      expect(result.firstLine).not.toBe("");
      expect(result.exitAfterCloseMs).toBeLessThan(5_000);
      expect(result.stderr).not.toMatch(/Error|EPIPE|at /);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 20_000);

  it("stops `pets list --all --json` asking for pages once its reader has gone", async () => {
    const result = await intoHeadOne(["pets", "list", "--all", "--json", "--verbose"]);
    expect(result.code).toBe(0);
    const pages = result.stderr.match(/^> GET /gm) ?? [];
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.length).toBeLessThan(PETS / 100);
    expect(result.stderr).not.toMatch(/Error|EPIPE/);
  }, 20_000);

  it("ends `pets list` with a large listing, and `pets export`, quietly: exit 0, nothing on stderr", async () => {
    for (const args of [["pets", "list", "--limit", String(PETS)], ["pets", "export"]]) {
      const result = await intoHeadOne(args);
      expect(result, args.join(" ")).toMatchObject({ code: 0, stderr: "" });
      expect(result.firstLine).toContain(LONG_NAME);
    }
  }, 20_000);
});
