// The built CLI's `serve --ephemeral --seed` as a subprocess: a bad seed exits 2 before anything
// listens, nothing is written anywhere, --write-env and --print-env hand over the base URL and the
// admin key, `server reset` restores the seed, and --seed without --ephemeral fills an empty db.
import { spawn, type ChildProcess } from "node:child_process";
import { watch, type FSWatcher } from "node:fs";
import { mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { runCli } from "../cli/helpers/run-cli.js";
import { startReceiver, type Received } from "../helpers/webhook-receiver.js";
import { SEED_ADMIN, SEED_FILE } from "../ephemeral/helpers.js";
import { BIN, serveToExit, startServeProcess, tempDbPath } from "../helpers/serve-process.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

const temp = (name: string) => mkdtemp(join(tmpdir(), `petstore-${name}-`));

/** `serve` with these args in `cwd` and `env`; resolves with the child and its stdout once it says `until`. */
function serve(args: string[], options: { cwd?: string; env?: Record<string, string>; until: RegExp }) {
  const child = spawn(process.execPath, [BIN, "serve", ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", PETSTORE_LOG_FORMAT: "text", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (options.until.test(stdout)) resolve(stdout);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}:\n${stderr}`)));
  });
  return { child, ready, exited, stderr: () => stderr, stdout: () => stdout };
}

/** A seed endpoint's fixed signing secret: `whsec_` and the base64 of 32 bytes. */
const HOOK_SECRET = "whsec_YSBmaXhlZCBzZWNyZXQgYSB0ZXN0IGtub3dzOiAzMkI=";
const hookAt = (url: string, extra: Record<string, unknown> = {}) => ({ webhooks: [{ url, secret: HOOK_SECRET, ...extra }] });

function verifiedBySeedSecret(request: Received): { type: string; data: Record<string, unknown> } {
  const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(request.headers[name])]));
  return new Webhook(HOOK_SECRET).verify(request.body, headers) as never;
}

const envOf = (text: string) => Object.fromEntries(text.trim().split("\n").map((line) => line.split(/=(.*)/s).slice(0, 2)));

describe("serve --seed: a bad seed", () => {
  it.each([
    [{ pets: [{ name: "Rex", categoryId: 1 }, { name: "Tom", categoryId: 0 }] }, "pets[1].categoryId: must be at least 1"],
    [{ pets: [{ name: "Rex", categoryId: 1, colour: "red" }] }, "pets[0].colour: unknown field"],
    [{ pets: [{ id: 2, name: "A", categoryId: 1 }, { id: 2, name: "B", categoryId: 1 }] }, "pets[1].id: 2 is used by an earlier record"],
    [{ orders: [{ petId: 9 }] }, "orders[0].petId: no pet of the seed has id 9"],
    [{ keys: [{ key: "ps_short", plan: "pro" }] }, "keys[0].key: must be ps_ and 40 letters or digits"],
    [{ keys: [{ key: SEED_ADMIN, plan: "enterprise" }] }, "keys[0].perMinute: is required for the enterprise plan"],
    [{ keys: [{ key: SEED_ADMIN, plan: "gold" }] }, "keys[0].plan: must be one of free, pro, business, enterprise"],
    [hookAt("ftp://127.0.0.1/hook"), "webhooks[0].url: must be an http or https URL, not ftp:"],
    [hookAt("http://user:pw@127.0.0.1/hook"), "webhooks[0].url: must not carry a user name or password"],
    [hookAt("http://127.0.0.1/hook", { types: ["pet.created", "pet.eaten"] }), 'webhooks[0].types.1: must be one of pet.created'],
    [{ webhooks: [{ url: "http://127.0.0.1/a", secret: HOOK_SECRET }, { url: "http://127.0.0.1/b" }] }, "webhooks[1].secret: is required"],
    [hookAt("http://127.0.0.1/hook", { secret: "whsec_tooShort" }), "webhooks[0].secret: must be whsec_ and the base64 of 32 bytes"],
    [hookAt("http://127.0.0.1/hook", { colour: "red" }), "webhooks[0].colour: unknown field"],
    // Loopback is let through in memory; cloud metadata never is.
    [hookAt("http://169.254.169.254/latest/meta-data"), "webhooks[0].url: the URL's host is 169.254.169.254"],
  ])("%j exits 2 naming %s, and nothing listens", async (seed, named) => {
    const dir = await temp("bad-seed");
    const file = join(dir, "seed.json");
    await writeFile(file, JSON.stringify(seed));
    const { code, stdout, stderr } = await serveToExit(["--ephemeral", "--seed", file, "--port", "0"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(named);
    expect(stderr).not.toContain("whsec_tooShort");
  });

  it("exits 2 for a file that is missing or not JSON, naming it", async () => {
    const dir = await temp("bad-seed");
    await writeFile(join(dir, "broken.json"), "{ pets: ");
    for (const name of ["missing.json", "broken.json"]) {
      const { code, stdout, stderr } = await serveToExit(["--ephemeral", "--seed", join(dir, name), "--port", "0"]);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toContain(join(dir, name));
    }
  });
});

describe("serve --ephemeral", () => {
  it("writes nothing in the working folder, the temporary folder or HOME (no db, lock, counters, code cache)", async () => {
    const [work, tmp, home, seeds] = await Promise.all([temp("work"), temp("tmp"), temp("home"), temp("seeds")]);
    const hook = await startReceiver();
    const fixture = JSON.parse(await readFile(SEED_FILE, "utf8")) as Record<string, unknown>;
    await writeFile(join(seeds, "seed.json"), JSON.stringify({ ...fixture, ...hookAt(hook.url, { id: 7 }) }));
    const changes: string[] = [];
    const watchers: FSWatcher[] = [work, tmp, home].map((dir) => watch(dir, { recursive: true }, (kind, name) => changes.push(`${dir}: ${kind} ${name}`)));
    try {
      const server = serve(["--ephemeral", "--seed", join(seeds, "seed.json"), "--port", "0", "--print-env"], {
        cwd: work,
        env: { HOME: home, TMPDIR: tmp },
        until: /PETSTORE_API_KEY=\S+\n/,
      });
      const env = envOf(await server.ready);
      const call = (path: string, init: RequestInit = {}) => fetch(`${env.PETSTORE_BASE_URL}${path}`, { ...init, headers: { authorization: `Bearer ${env.PETSTORE_API_KEY}`, "content-type": "application/json" } });
      expect((await call("/pets", { method: "POST", body: JSON.stringify({ name: "Written?", categoryId: 1 }) })).status).toBe(201);
      expect((await call("/keys", { method: "POST", body: JSON.stringify({ plan: "pro" }) })).status).toBe(201);
      // Webhooks too: a delivery of the seed's endpoint, a test event, an endpoint added, the deliveries listed.
      expect((await call("/webhooks/7/test", { method: "POST" })).status).toBe(200);
      expect((await call("/webhooks", { method: "POST", body: JSON.stringify({ url: `${hook.url}/added` }) })).status).toBe(201);
      const received = await hook.waitFor(2);
      expect(received.map((request) => verifiedBySeedSecret(request).type).sort()).toEqual(["pet.created", "webhook.test"]);
      await expect.poll(async () => (await (await call("/webhooks/7/deliveries")).json()) as unknown[]).toHaveLength(2);
      expect((await call("/admin/reset", { method: "POST" })).status).toBe(204);
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(changes).toEqual([]);
      for (const dir of [work, tmp, home]) expect(await readdir(dir, { recursive: true })).toEqual([]);
    } finally {
      for (const watcher of watchers) watcher.close();
      await hook.close();
    }
  });

  it("--write-env writes the base URL (the port 0 chose) and the admin key once listening, mode 0600", async () => {
    const dir = await temp("env");
    const file = join(dir, "petstore.env");
    const server = serve(["--ephemeral", "--seed", SEED_FILE, "--port", "0", "--write-env", file], { until: /listening on/ });
    const stdout = await server.ready;
    const port = /127\.0\.0\.1:(\d+)\/v1/.exec(stdout)?.[1];
    // The file follows the listening line; a script waits for the file itself.
    for (let n = 0; n < 100 && !(await stat(file).catch(() => undefined)); n++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readFile(file, "utf8")).toBe(`PETSTORE_BASE_URL=http://127.0.0.1:${port}/v1\nPETSTORE_API_KEY=${SEED_ADMIN}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["petstore.env"]);
  });

  it("--print-env prints exactly the two lines on stdout (the rest goes to stderr); without a seed's admin key, one drawn for this run", async () => {
    const server = serve(["--ephemeral", "--port", "0", "--print-env"], { until: /PETSTORE_API_KEY=\S+\n/ });
    const stdout = await server.ready;
    expect(stdout).toMatch(/^PETSTORE_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1\nPETSTORE_API_KEY=ps_[0-9A-Za-z]{40}\n$/);
    expect(server.stderr()).toMatch(/petstore listening on http:\/\/127\.0\.0\.1:\d+\/v1 \(in memory/);
    const env = envOf(stdout);
    const current = await fetch(`${env.PETSTORE_BASE_URL}/keys/current`, { headers: { authorization: `Bearer ${env.PETSTORE_API_KEY}` } });
    expect(((await current.json()) as { key: { admin: boolean } }).key.admin).toBe(true);
  });

  it("refuses --db and --redis beside it (exit 2)", async () => {
    expect((await serveToExit(["--ephemeral", "--db", "x.json", "--port", "0"])).code).toBe(2);
    expect((await serveToExit(["--ephemeral", "--redis", "redis://127.0.0.1:1", "--port", "0"])).code).toBe(2);
  });
});

describe("petstore server reset", () => {
  it("restores the seed (exit 0, nothing on stdout); against a server over a db, exit 4", async () => {
    const server = serve(["--ephemeral", "--seed", SEED_FILE, "--port", "0", "--print-env"], { until: /PETSTORE_API_KEY=\S+\n/ });
    const env = envOf(await server.ready);
    await fetch(`${env.PETSTORE_BASE_URL}/pets`, { method: "POST", headers: { authorization: `Bearer ${SEED_ADMIN}`, "content-type": "application/json" }, body: JSON.stringify({ name: "Gone", categoryId: 1 }) });
    const result = await runCli(["server", "reset"], { env });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    const pets = await (await fetch(`${env.PETSTORE_BASE_URL}/pets`, { headers: { authorization: `Bearer ${SEED_ADMIN}` } })).json();
    expect((pets as Array<{ id: number }>).map((pet) => pet.id)).toEqual([3, 5, 6]);

    const file = await startServeProcess();
    try {
      const refused = await runCli(["server", "reset"], { env: { PETSTORE_BASE_URL: file.baseUrl, PETSTORE_API_KEY: file.adminKey } });
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain("only a throwaway server (serve --ephemeral) can be reset");
    } finally {
      await file.stop();
    }
  });
});

describe("serve --seed without --ephemeral", () => {
  it("fills an empty db, which keeps the seed after a restart without --seed", async () => {
    const dbPath = await tempDbPath();
    const first = await startServeProcess({ dbPath, args: ["--seed", SEED_FILE] });
    const list = async (baseUrl: string) => (await (await fetch(`${baseUrl}/pets`, { headers: { authorization: `Bearer ${SEED_ADMIN}` } })).json()) as Array<{ id: number }>;
    expect((await list(first.baseUrl)).map((pet) => pet.id)).toEqual([3, 5, 6]);
    expect(await first.stop()).toBe(0);
    const second = await startServeProcess({ dbPath });
    expect((await list(second.baseUrl)).map((pet) => pet.id)).toEqual([3, 5, 6]);
    await second.stop();
  });

  it("is refused on a db that holds data: exit 1 naming it, nothing listens, the db unchanged", async () => {
    const dbPath = await tempDbPath();
    const first = await startServeProcess({ dbPath });
    await fetch(`${first.baseUrl}/pets`, { method: "POST", headers: { authorization: `Bearer ${first.adminKey}`, "content-type": "application/json" }, body: JSON.stringify({ name: "Mine", categoryId: 1 }) });
    await first.stop();
    const before = await readFile(dbPath, "utf8");
    const { code, stdout, stderr } = await serveToExit(["--port", "0", "--db", dbPath, "--seed", SEED_FILE]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(`--seed fills only an empty db, and ${dbPath} holds pets, keys or orders`);
    expect(await readFile(dbPath, "utf8")).toBe(before);
  });
});

describe("serve --seed with webhooks without --ephemeral", () => {
  it("refuses an endpoint on loopback (exit 2 naming it, no db created) unless --webhooks-allow-private, which fills the db and delivers", async () => {
    const hook = await startReceiver();
    try {
      const dir = await temp("seed-hooks");
      const file = join(dir, "seed.json");
      await writeFile(file, JSON.stringify({ keys: [{ key: SEED_ADMIN, plan: "enterprise", admin: true, perMinute: 100000, perDay: 10000000 }], ...hookAt(hook.url, { id: 3 }) }));
      const dbPath = await tempDbPath();
      const refused = await serveToExit(["--port", "0", "--db", dbPath, "--seed", file]);
      expect(refused).toMatchObject({ code: 2, stdout: "" });
      expect(refused.stderr).toContain("webhooks[0].url: the URL's host is 127.0.0.1");
      expect(refused.stderr).toContain("--webhooks-allow-private");
      await expect(stat(dbPath)).rejects.toThrow();

      const server = await startServeProcess({ dbPath, adminKey: null, args: ["--seed", file, "--webhooks-allow-private"] });
      const headers = { authorization: `Bearer ${SEED_ADMIN}`, "content-type": "application/json" };
      const listed = (await (await fetch(`${server.baseUrl}/webhooks`, { headers })).json()) as Array<{ id: number; url: string }>;
      expect(listed.map(({ id, url }) => ({ id, url }))).toEqual([{ id: 3, url: hook.url }]);
      expect((await fetch(`${server.baseUrl}/pets`, { method: "POST", headers, body: JSON.stringify({ name: "Filed", categoryId: 1 }) })).status).toBe(201);
      const [request] = await hook.waitFor(1);
      expect(verifiedBySeedSecret(request!)).toMatchObject({ type: "pet.created", data: { name: "Filed" } });
      await server.stop();
    } finally {
      await hook.close();
    }
  });
});

describe("serve --chaos and petstore server chaos", () => {
  it("a bad spec exits 2 naming the part, and nothing listens", async () => {
    const { code, stdout, stderr } = await serveToExit(["--ephemeral", "--port", "0", "--chaos", "latency=200ms@10%,status=503@2x"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain('"status=503@2x": the rate must be a percentage from 0% to 100%');
  });

  it("server chaos sets the faults and prints them; a bad spec exits 2 before any request", async () => {
    const server = serve(["--ephemeral", "--seed", SEED_FILE, "--port", "0", "--print-env"], { until: /PETSTORE_API_KEY=\S+\n/ });
    const env = envOf(await server.ready);
    expect(await runCli(["server", "chaos", "status=503@100%", "--seed", "5"], { env })).toMatchObject({ code: 0, stdout: "status=503@100% (seed 5)\n" });
    const faulted = await fetch(`${env.PETSTORE_BASE_URL}/pets`, { headers: { authorization: `Bearer ${SEED_ADMIN}` } });
    expect(faulted.status).toBe(503);
    expect(await runCli(["server", "chaos", "off"], { env })).toMatchObject({ code: 0, stdout: "off (seed 5)\n" });
    const bad = await runCli(["server", "chaos", "reset=2"], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"reset=2": the rate must be a percentage from 0% to 100%');
  });
});
