// `petstore events` as a user runs it: the built CLI following the real server, piped (NDJSON)
// and on a terminal, across a server restart, until Ctrl-C or a revoked key.
import { spawn, type ChildProcess } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unusedTestPort } from "../../helpers/test-port.js";
import { BIN, startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { tempHome } from "../helpers/run-cli.js";

let server: ServeProcess;
beforeAll(async () => {
  server = await startServeProcess();
});
afterAll(() => server?.stop());

interface Following {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Waits until stdout (or stderr) matches. */
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr", timeoutMs?: number): Promise<void>;
  exit: Promise<number | null>;
}

async function follow(args: string[], env: Record<string, string>, tty = false): Promise<Following> {
  const home = await tempHome();
  const preload = tty ? ["--import", `${new URL("../helpers/force-tty.mjs", import.meta.url).href}?streams=stdout,stderr`] : [];
  const child = spawn(process.execPath, [...preload, BIN, "events", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: home, PETSTORE_CONFIG: `${home}/config.json`, NO_COLOR: "1", TZ: "UTC", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out.stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out.stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exit,
    waitFor: async (pattern, stream = "stdout", timeoutMs = 8_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out[stream])) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} on ${stream} within ${timeoutMs} ms:\n${out.stdout}\n${out.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

const envFor = (target: ServeProcess, key = target.adminKey) => ({ PETSTORE_BASE_URL: target.baseUrl, PETSTORE_API_KEY: key });
const post = (target: ServeProcess, path: string, body: unknown, key = target.adminKey) =>
  fetch(`${target.baseUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) }).then(
    async (response) => (await response.json()) as Record<string, unknown>,
  );

describe("petstore events", () => {
  it("piped: one JSON object per line, replayed from --since then live; Ctrl-C exits 0", async () => {
    const pet = await post(server, "/pets", { name: "Rex", categoryId: 2 });
    const following = await follow(["--since", "0"], envFor(server));
    await following.waitFor(/"pet.created"/);
    const later = await post(server, "/pets", { name: "Tom", categoryId: 3 });
    await following.waitFor(new RegExp(`"id":${String(later.id)},"name":"Tom"`));
    following.child.kill("SIGINT");
    expect(await following.exit).toBe(0);
    const lines = following.stdout().trim().split("\n").map((line) => JSON.parse(line) as { type: string; id: number; data: { id: number } });
    expect(lines[0]).toMatchObject({ type: "pet.created", id: 1, data: pet });
    expect(lines.at(-1)).toMatchObject({ type: "pet.created", data: later });
    expect(following.stderr()).toBe("");
  });

  it("on a terminal: one readable line per event (time, type, id, summary); --types filters", async () => {
    const pet = await post(server, "/pets", { name: "Kit", categoryId: 4 });
    await fetch(`${server.baseUrl}/pets/${String(pet.id)}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/merge-patch+json" },
      body: JSON.stringify({ status: "sold" }),
    });
    // From the first event, so that the change is seen however long the CLI takes to start.
    const following = await follow(["--types", "pet.updated", "--since", "0"], envFor(server), true);
    await following.waitFor(/"Kit"/);
    following.child.kill("SIGINT");
    expect(await following.exit).toBe(0);
    const lines = stripVTControlCharacters(following.stdout()).trim().split("\n");
    expect(lines.every((line) => line.includes("pet.updated"))).toBe(true);
    const line = lines.find((candidate) => candidate.includes('"Kit"'));
    expect(line).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d  pet\\.updated\\s+#\\d+\\s+pet ${String(pet.id)} "Kit" \\(category 4, sold\\)$`));
  });

  it("refuses an unknown type before sending anything (exit 2)", async () => {
    const following = await follow(["--types", "pet.sold"], envFor(server));
    expect(await following.exit).toBe(2);
    expect(following.stderr()).toMatch(/unknown event type "pet.sold"/);
  });

  it("reconnects after the server restarts, saying so, without printing an event twice or skipping one", async () => {
    const port = await unusedTestPort();
    const first = await startServeProcess({ args: ["--port", String(port)] });
    const following = await follow(["--since", "0"], envFor(first));
    await post(first, "/pets", { name: "Before", categoryId: 1 });
    await following.waitFor(/"Before"/);
    expect(await first.stop()).toBe(0);
    await following.waitFor(/reconnecting in/, "stderr");
    const second = await startServeProcess({ dbPath: first.dbPath, args: ["--port", String(port)] });
    try {
      await post(second, "/pets", { name: "After", categoryId: 1 });
      await following.waitFor(/"After"/, "stdout", 15_000);
      following.child.kill("SIGINT");
      expect(await following.exit).toBe(0);
      const ids = following.stdout().trim().split("\n").map((line) => (JSON.parse(line) as { id: number }).id);
      expect(ids).toEqual(ids.map((_, n) => ids[0]! + n));
      expect(following.stderr()).toMatch(/Connection lost .*; reconnecting in \d+\.\d s after event \d+/);
    } finally {
      await second.stop();
    }
  }, 40_000);

  it("Ctrl-C while it waits to reconnect ends it at once, exit 0", async () => {
    const down = await startServeProcess();
    await down.stop();
    const following = await follow([], envFor(down));
    // The third wait is 2 to 4 s long: an exit well before it ends was not waiting for it.
    await following.waitFor(/(?:.*reconnecting in .*\n){3}/, "stderr", 15_000);
    const seconds = Number(/reconnecting in (\d+\.\d) s\n$/.exec(following.stderr())?.[1]);
    const interrupted = Date.now();
    following.child.kill("SIGINT");
    expect(await following.exit).toBe(0);
    expect(Date.now() - interrupted).toBeLessThan(seconds * 1000 - 500);
    expect(following.stdout()).toBe("");
  }, 30_000);

  it("exits 3 when its key is revoked while it follows", async () => {
    const created = await post(server, "/keys", { plan: "pro", name: "follower" });
    const following = await follow([], envFor(server, String(created.key)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await fetch(`${server.baseUrl}/keys/${String(created.id)}`, { method: "DELETE", headers: { authorization: `Bearer ${server.adminKey}` } });
    expect(await following.exit).toBe(3);
    expect(following.stderr()).toMatch(/revoked/);
  });
});
