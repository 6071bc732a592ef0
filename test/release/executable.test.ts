// The single executable (`npm run package`) does what the npm install does, for a user without
// Node: a copy alone in a directory, a clean environment whose PATH finds no node or npm. The
// smoke of the README's tour (serve; a key; pets added, listed, updated, deleted; an order;
// events followed; import and export; /docs), then every other command group (each is loaded
// lazily from its own files inside the executable), HTTPS, PostgreSQL + Redis and the shells.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { get } from "node:https";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import type { TLSSocket } from "node:tls";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import { startPostgres, startRedis, type Engine } from "../helpers/engines.js";
import { collect, EXECUTABLE, executableAlone, RELEASE, run, serve, type Alone, type Served } from "./helpers/executable.js";

const ADMIN_KEY = "ps_release_admin_key_0123456789abcdef";
const METRICS_TOKEN = "release_metrics_token_0123456789";
let alone: Alone;
let work: string;
const petstore = (args: string[], extra: Record<string, string> = {}, input = "") => run(alone.executable, args, alone.env(extra), input);

beforeAll(async () => {
  alone = await executableAlone();
  work = await mkdtemp(join(tmpdir(), "petstore-release-db-"));
});
afterAll(async () => {
  await alone?.remove();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the executable, where there is no Node", () => {
  it("runs with a PATH that finds no node and no npm", async () => {
    const found = spawnSync("sh", ["-c", "for tool in node nodejs npm npx; do command -v $tool && exit 0; done; exit 1"], { env: alone.env(), encoding: "utf8" });
    expect({ status: found.status, stdout: found.stdout }).toEqual({ status: 1, stdout: "" });
    expect(await petstore(["--version"])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  it("says nothing more when NODE_OPTIONS sets a V8 flag (its code caches are then refused, silently)", async () => {
    expect(await petstore(["--version"], { NODE_OPTIONS: "--max-old-space-size=200" })).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  it("is the file release/SHA256SUMS names", () => {
    const sum = createHash("sha256").update(readFileSync(EXECUTABLE)).digest("hex");
    expect(readFileSync(join(RELEASE, "SHA256SUMS"), "utf8")).toBe(`${sum}  petstore-linux-x64\n`);
  });

  it("prints its help, and completion scripts that the shells load", async () => {
    const help = await petstore(["--help"]);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toMatch(/^Usage: petstore \[options\] \[command\]/);
    expect(help.stdout).toMatch(/^ {2}health \[options\] /m);
    const bash = await petstore(["completion", "bash"]);
    const script = `${bash.stdout}\nCOMP_WORDS=(petstore pets ""); COMP_CWORD=2; _petstore_completions; echo "\${COMPREPLY[*]}"`;
    expect(execFileSync("bash", ["-c", script], { encoding: "utf8" })).toBe("list add get update delete import export\n");
    for (const shell of ["zsh", "fish"]) expect((await petstore(["completion", shell])).code).toBe(0);
  });
});

describe("the tour, on a file db", () => {
  let server: Served;
  let key: string;
  const client = (args: string[], input = "") => petstore(args, { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: key }, input);

  beforeAll(async () => {
    server = await serve(alone.executable, ["--db", join(work, "petstore.json"), "--metrics-token", METRICS_TOKEN], alone.env({ PETSTORE_ADMIN_KEY: ADMIN_KEY }));
    const created = await petstore(["keys", "create", "--plan", "pro", "--name", "smoke"], { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: ADMIN_KEY });
    expect(created.code).toBe(0);
    key = created.stdout.trim();
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it("adds, lists, updates and deletes pets with a key it created", async () => {
    expect(key).toMatch(/^ps_\w{20,}$/);
    const added = await client(["pets", "add", "--name", "Rex", "--category", "1", "--json"]);
    expect(added).toMatchObject({ code: 0, stderr: "" });
    const pet = JSON.parse(added.stdout) as { id: number };
    expect(pet).toMatchObject({ name: "Rex", categoryId: 1, status: "available" });
    expect(JSON.parse((await client(["pets", "list", "--json"])).stdout)).toEqual([pet]);
    expect((await client(["pets", "list", "--jq", ".[].name"])).stdout).toBe("Rex\n");
    const updated = await client(["pets", "update", String(pet.id), "--name", "Rex II", "--json"]);
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: pet.id, name: "Rex II" });
    expect(await client(["pets", "delete", String(pet.id), "--yes"])).toMatchObject({ code: 0 });
    expect(await client(["pets", "get", String(pet.id)])).toMatchObject({ code: 4, stdout: "" });
  });

  it("places an order, which makes the pet pending", async () => {
    const pet = JSON.parse((await client(["pets", "add", "--name", "Tom", "--category", "2", "--json"])).stdout) as { id: number };
    const placed = await client(["orders", "place", String(pet.id), "--json"]);
    expect(placed).toMatchObject({ code: 0 });
    expect(JSON.parse(placed.stdout)).toMatchObject({ petId: pet.id, status: "placed" });
    expect(JSON.parse((await client(["pets", "get", String(pet.id), "--json"])).stdout)).toMatchObject({ status: "pending" });
  });

  it("follows events as they happen, until Ctrl-C (exit 0)", async () => {
    const child = spawn(alone.executable, ["events"], { env: alone.env({ PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: key }), stdio: ["ignore", "pipe", "pipe"] });
    const done = collect(child);
    let seen = "";
    child.stdout.on("data", (chunk: Buffer) => (seen += chunk.toString()));
    // Until the stream is open, a change could come before it: add pets until one is seen.
    for (let attempt = 0; !seen.includes('"Kit"') && attempt < 100; attempt++) {
      if (attempt % 10 === 0) await client(["pets", "add", "--name", "Kit", "--category", "3"]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill("SIGINT");
    const result = await done;
    expect(result.code).toBe(0);
    const event = JSON.parse(result.stdout.trim().split("\n")[0]!) as { type: string; data: { name: string } };
    expect(event).toMatchObject({ type: "pet.created", data: { name: "Kit" } });
  });

  it("imports a file and exports it back", async () => {
    const file = join(work, "import.ndjson");
    await writeFile(file, ['{"name":"Ada","categoryId":4}', '{"name":"Bob","categoryId":4,"status":"sold"}'].join("\n") + "\n");
    expect(await client(["pets", "import", file])).toMatchObject({ code: 0 });
    const exported = await client(["pets", "export", "--category", "4"]);
    expect(exported).toMatchObject({ code: 0 });
    expect(exported.stdout).toBe('{"name":"Ada","categoryId":4,"status":"available"}\n{"name":"Bob","categoryId":4,"status":"sold"}\n');
  });

  it("serves /docs with Swagger UI's files from inside itself", async () => {
    const page = await fetch(`${server.origin}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("swagger-ui-bundle.js");
    const manifest = createRequire(import.meta.url).resolve("swagger-ui-dist/package.json");
    const bundle = await fetch(`${server.origin}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(Buffer.from(await bundle.arrayBuffer()).equals(await readFile(join(dirname(manifest), "swagger-ui-bundle.js")))).toBe(true);
  });

  it("answers its own health check", async () => {
    expect(await petstore(["health", "--url", `${server.origin}/readyz`])).toEqual({ code: 0, stdout: "ready\n", stderr: "" });
  });

  it("forwards events to a local receiver, signed as Standard Webhooks", async () => {
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const env = alone.env({ PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: key });
    const child = spawn(alone.executable, ["events", "--types", "pet.created", "--forward-to", target], { env, stdio: ["ignore", "pipe", "pipe"] });
    const done = collect(child);
    try {
      for (let attempt = 0; received.length === 0 && attempt < 100; attempt++) {
        if (attempt % 10 === 0) await client(["pets", "add", "--name", "Hook", "--category", "6"]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      child.kill("SIGINT");
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
    expect((await done).code).toBe(0);
    expect(received[0]?.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: "pet.created", data: { name: "Hook" } });
  });

  it.each([
    [["status"], /^Base URL +http:\/\/127\.0\.0\.1:\d+\/v1\n/],
    [["inventory", "--json"], /^\{\n {2}"available": \d+,\n {2}"pending": \d+,\n {2}"sold": \d+\n\}\n$/],
    [["orders", "list", "--json"], /"status": "placed"/],
    [["api", "/pets?limit=1"], /^\[\n {2}\{\n {4}"id": \d+,/],
    [["openapi"], /^\{\n {2}"openapi": "3\.1\.0",/],
  ])("runs %j (exit 0, the answer on stdout)", async (args, stdout) => {
    const result = await client(args);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(stdout);
  });

  it("lists keys and backs up the store with the admin key; db export reads the copy", async () => {
    const admin = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: ADMIN_KEY };
    const keys = JSON.parse((await petstore(["keys", "list", "--json"], admin)).stdout) as Array<{ name: string; plan: string }>;
    expect(keys).toEqual([expect.objectContaining({ name: "smoke", plan: "pro" })]);
    const copy = join(work, "backup.json");
    expect(await petstore(["db", "backup", copy], admin)).toMatchObject({ code: 0, stdout: "" });
    const exported = await petstore(["db", "export", "--db", copy]);
    expect(exported).toMatchObject({ code: 0, stderr: "" });
    const lines = exported.stdout.trim().split("\n").map((line) => JSON.parse(line) as { format?: string; type?: string; counts?: { pets: number } });
    const listed = JSON.parse((await client(["pets", "list", "--json", "--limit", "100"])).stdout) as unknown[];
    expect(lines[0]).toMatchObject({ format: "petstore-export", version: 2 });
    expect(lines.at(-1)).toMatchObject({ type: "end", counts: { pets: listed.length } });
  });

  it("keeps a base URL in its config file", async () => {
    expect(await petstore(["config", "set", "base-url", server.baseUrl])).toMatchObject({ code: 0 });
    expect(await petstore(["config", "get", "base-url"])).toEqual({ code: 0, stdout: `${server.baseUrl}\n`, stderr: "" });
  });

  it("serves Prometheus metrics to the metrics token", async () => {
    const metrics = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^process_cpu_user_seconds_total \d/m);
  });
});

describe("serve --https", () => {
  it("serves HTTPS with a self-signed certificate", async () => {
    const server = await serve(alone.executable, ["--https", "--db", join(work, "https.json")], alone.env({ PETSTORE_ADMIN_KEY: ADMIN_KEY }));
    try {
      expect(server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/);
      const answer = await new Promise<{ status: number | undefined; body: string; selfSigned: boolean }>((resolve, reject) => {
        get(`${server.origin}/readyz`, { rejectUnauthorized: false }, (response) => {
          let body = "";
          const certificate = (response.socket as TLSSocket).getPeerCertificate();
          response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode, body, selfSigned: certificate.issuer?.CN === certificate.subject?.CN }));
        }).on("error", reject);
      });
      expect(answer).toEqual({ status: 200, body: '{"status":"ready"}', selfSigned: true });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe("serve over PostgreSQL and Redis", () => {
  let postgres: Engine | undefined;
  let redis: Engine | undefined;
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  it("imports an export into a new file db and migrates that into PostgreSQL", async () => {
    const exportFile = join(work, "to-migrate.ndjson");
    const pets = [
      { id: 1, name: "Ada", categoryId: 4, status: "available" },
      { id: 2, name: "Bob", categoryId: 4, status: "sold" },
    ];
    const lines: object[] = [
      { format: "petstore-export", version: 1, nextPetId: 3, nextOrderId: 1 },
      ...pets.map((record) => ({ type: "pet", record })),
      { type: "end", counts: { pets: 2, keys: 0, orders: 0, idempotency: 0 } },
    ];
    await writeFile(exportFile, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const file = join(work, "to-migrate.json");
    expect(await petstore(["db", "import", exportFile, "--db", file])).toMatchObject({ code: 0, stdout: "" });
    const migrated = await petstore(["db", "migrate", "--from", file, "--to", postgres!.url]);
    expect(migrated).toMatchObject({ code: 0, stdout: "" });
    expect(migrated.stderr).toMatch(/^Migrated 2 pets, 0 keys, 0 orders; the target holds 2, 0, 0\.\n/m);
  });

  it("keeps pets in PostgreSQL and limits in Redis", async () => {
    const server = await serve(alone.executable, ["--db", postgres!.url, "--redis", `${redis!.url}/0`], alone.env({ PETSTORE_ADMIN_KEY: ADMIN_KEY }));
    try {
      const env = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: ADMIN_KEY };
      const added = await petstore(["pets", "add", "--name", "Pg", "--category", "5", "--json"], env);
      expect(added).toMatchObject({ code: 0, stderr: "" });
      const listed = await fetch(`${server.baseUrl}/pets`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(listed.headers.get("x-ratelimit-limit")).not.toBeNull();
      expect(((await listed.json()) as Array<{ name: string }>).map((pet) => pet.name)).toEqual(["Ada", "Bob", "Pg"]);
      expect(await petstore(["health", "--url", `${server.origin}/readyz`])).toEqual({ code: 0, stdout: "ready\n", stderr: "" });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
