// Server text the client prints outside an Error line (the reason `petstore events` gives when it
// reconnects, the failed lines of `pets import`) is printed as safely as an Error message: no
// escape sequence or control character reaches stderr, terminal or pipe.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ESCAPE_MESSAGE, useHostileServers } from "../../helpers/hostile-server.js";
import { BIN } from "../../helpers/serve-process.js";
import { runCli, tempHome } from "../helpers/run-cli.js";

const KEY = `ps_${"k".repeat(40)}`;
// ESCAPE_MESSAGE as safe-text.ts prints it: sequences gone, breaks made spaces, controls dropped.
const SAFE_MESSAGE = "bad red fake line2end";
const RAW_CONTROLS = ["\u001b", "\u0007", "\u0008", "\r", "\u009b", "\u202e"];

const servers = useHostileServers();

function expectNoControls(text: string): void {
  for (const raw of RAW_CONTROLS) expect(text).not.toContain(raw);
}

/** `petstore events` until its first reconnect line, then Ctrl-C: what it wrote to stderr. */
async function firstReconnect(tty: boolean): Promise<{ code: number | null; stderr: string }> {
  const home = await tempHome();
  const preload = tty ? ["--import", `${new URL("../helpers/force-tty.mjs", import.meta.url).href}?streams=stdout,stderr`] : [];
  const child = spawn(process.execPath, [...preload, BIN, "events", "--base-url", servers.hostile.baseUrl("escape-stream"), "--api-key", KEY, "--retries", "0"], {
    env: { PATH: process.env.PATH ?? "", HOME: home, PETSTORE_CONFIG: join(home, "config.json"), NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    if (stderr.includes("reconnecting in")) child.kill("SIGINT");
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stderr };
}

describe("server text outside an Error line", () => {
  it.each([false, true])("events: the reconnect reason is printed without escape sequences (terminal: %s)", async (tty) => {
    const { code, stderr } = await firstReconnect(tty);
    expect(code).toBe(0);
    expectNoControls(stderr);
    expect(stderr).toMatch(new RegExp(`^Connection lost \\(${SAFE_MESSAGE}\\); reconnecting in \\d+\\.\\d s\\n`));
  });

  it.each([false, true])("pets import: each failed line is printed without escape sequences (terminal: %s)", async (tty) => {
    const dir = await tempHome();
    const file = join(dir, "pets.ndjson");
    await writeFile(file, `${JSON.stringify({ name: "Rex", categoryId: 1 })}\n${JSON.stringify({ name: "Tom", categoryId: 2 })}\n`);
    const result = await runCli(["pets", "import", file, "--base-url", servers.hostile.baseUrl("escape-create"), "--api-key", KEY, "--retries", "0", "--color", "never"], { tty });
    expect(result.code).toBe(1);
    expectNoControls(result.stderr.replaceAll("\r\u001b[2K", ""));
    const failed = result.stderr.split("\n").filter((line) => line.includes("Failed line"));
    // On a terminal the progress bar, cleared, shares the first failed line.
    expect(failed.map((line) => line.slice(line.indexOf("Failed line"))).sort()).toEqual([`Failed line 1: ${SAFE_MESSAGE}`, `Failed line 2: ${SAFE_MESSAGE}`]);
    expect(result.stderr).toContain("Imported 2 records: 0 created, 0 replayed, 0 skipped, 2 failed\n");
  });

  it("pets import --json keeps the server's text whole in the report on stdout, escaped by JSON", async () => {
    const dir = await tempHome();
    const file = join(dir, "pets.ndjson");
    await writeFile(file, `${JSON.stringify({ name: "Rex", categoryId: 1 })}\n`);
    const result = await runCli(["pets", "import", file, "--base-url", servers.hostile.baseUrl("escape-create"), "--api-key", KEY, "--retries", "0", "--json"]);
    expect(result.code).toBe(1);
    expectNoControls(result.stderr);
    expect(result.stderr).toContain(`Failed line 1: ${SAFE_MESSAGE}\n`);
    expectNoControls(result.stdout);
    expect((JSON.parse(result.stdout) as { failed: unknown }).failed).toEqual([{ line: 1, error: ESCAPE_MESSAGE }]);
  });
});
