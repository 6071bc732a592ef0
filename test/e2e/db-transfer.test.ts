// `petstore db export | import | migrate` as subprocesses: a file store with gaps in its ids,
// a rotated key, an expiring key and an order goes to PostgreSQL and back unchanged.
import { readFile, writeFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers/run-cli.js";
import { startServeProcess, tempDbPath, type ServeProcess } from "../helpers/serve-process.js";
import { freshDatabase } from "../helpers/test-backend.js";

let source: string;
let rotatedSecret: string;

async function api(server: ServeProcess, path: string, body?: unknown, method = body === undefined ? "GET" : "POST"): Promise<Record<string, unknown>> {
  const headers = { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" };
  const response = await fetch(`${server.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
}

beforeAll(async () => {
  source = await tempDbPath();
  const server = await startServeProcess({ dbPath: source });
  for (const name of ["Rex", "Tom", "Kit"]) await api(server, "/pets", { name, categoryId: 1 });
  await api(server, "/pets/2", undefined, "DELETE");
  const order = await api(server, "/store/orders", { petId: 3 });
  await fetch(`${server.baseUrl}/store/orders/${String(order.id)}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/merge-patch+json" },
    body: JSON.stringify({ status: "approved" }),
  });
  await api(server, "/keys", { plan: "pro", name: "expiring", expiresAt: "2099-01-01T00:00:00Z" });
  const rotating = await api(server, "/keys", { plan: "free", name: "rotated" });
  rotatedSecret = String((await api(server, `/keys/${String(rotating.id)}/rotate`, { graceSeconds: 3600 })).key);
  await server.stop();
});

const exportOf = async (db: string) => {
  const result = await runCli(["db", "export", "--db", db]);
  expect(result).toMatchObject({ code: 0, stderr: "" });
  return result.stdout;
};

describe("db export", () => {
  it("writes a header naming the format version, one line per record, and an end line with the counts", async () => {
    const lines = (await exportOf(source)).trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toEqual({ format: "petstore-export", version: 2, nextPetId: 4, nextOrderId: 2 });
    expect(lines.filter((line) => line.type === "pet").map((line) => (line.record as { id: number }).id)).toEqual([1, 3]);
    const keys = lines.filter((line) => line.type === "key").map((line) => line.record as Record<string, unknown>);
    expect(keys.every((key) => typeof key.hash === "string")).toBe(true);
    expect(lines.find((line) => line.type === "order")?.record).toMatchObject({ id: 1, petId: 3, status: "approved", revision: 2 });
    expect(lines.at(-1)).toEqual({ type: "end", counts: { pets: 2, keys: keys.length, orders: 1, idempotency: 0 } });
  });
});

describe("db migrate", () => {
  it("file -> PostgreSQL -> file gives back the same data; the PostgreSQL copy serves with the same ids and secrets", async () => {
    const { db: postgres, redis } = await freshDatabase();
    const toPostgres = await runCli(["db", "migrate", "--from", source, "--to", postgres]);
    expect(toPostgres.code).toBe(0);
    expect(toPostgres.stderr).toMatch(/^Migrated 2 pets, \d+ keys, 1 orders; the target holds 2, \d+, 1\.\n$/);
    const back = await tempDbPath();
    expect((await runCli(["db", "migrate", "--from", postgres, "--to", back])).code).toBe(0);
    expect(await exportOf(back)).toBe(await exportOf(source));
    expect(await exportOf(postgres)).toBe(await exportOf(source));

    const server = await startServeProcess({ dbPath: postgres, args: ["--redis", redis] });
    try {
      const created = await api(server, "/pets", { name: "New", categoryId: 1 });
      expect(created.id).toBe(4);
      const listed = await fetch(`${server.baseUrl}/pets`, { headers: { authorization: `Bearer ${rotatedSecret}` } });
      expect(listed.status).toBe(200);
      const order = await api(server, "/store/orders", { petId: 3 });
      expect(order.code).toBe("pet_not_available");
    } finally {
      await server.stop();
    }
    // Five CLI processes and a server started in a row: 14 s alone on a loaded machine, 20 s with another file beside it.
  }, 60_000);
});

describe("db import", () => {
  it("refuses a non-empty target, another format version, and an export cut short", async () => {
    const exported = await exportOf(source);
    const file = `${await tempDbPath()}.ndjson`;
    await writeFile(file, exported);
    const target = await tempDbPath();
    expect(await runCli(["db", "import", file, "--db", target])).toMatchObject({ code: 0 });
    expect(JSON.parse(await readFile(target, "utf8"))).toMatchObject({ nextPetId: 4, nextOrderId: 2 });
    const again = await runCli(["db", "import", file, "--db", target]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/is not empty/);
    const { db: postgres } = await freshDatabase();
    expect((await runCli(["db", "import", file, "--db", postgres])).code).toBe(0);
    expect((await runCli(["db", "import", file, "--db", postgres])).stderr).toMatch(/not empty/);

    const newer = exported.replace('"version":2', '"version":4');
    await writeFile(file, newer);
    const refused = await runCli(["db", "import", file, "--db", await tempDbPath()]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/format version 4; this petstore reads versions 1 to 3/);

    await writeFile(file, exported.split("\n").slice(0, -2).join("\n"));
    const cut = await runCli(["db", "import", file, "--db", await tempDbPath()]);
    expect(cut.stderr).toMatch(/no end line: it was cut short/);
  });

  it("reads a version 1 export (before scopes): its keys get the five scopes of a key created without any", async () => {
    const current = await exportOf(source);
    const v1 = current
      .split("\n")
      .map((line) => line.replace('"version":2', '"version":1').replace(/,"scopes":\[[^\]]*\]/, ""))
      .join("\n");
    expect(v1).not.toContain("scopes");
    const file = `${await tempDbPath()}.ndjson`;
    await writeFile(file, v1);
    const target = await tempDbPath();
    expect(await runCli(["db", "import", file, "--db", target])).toMatchObject({ code: 0 });
    expect(await exportOf(target)).toBe(current);
  });

  it("refuses to export a file a running server holds, naming db backup", async () => {
    const server = await startServeProcess();
    try {
      const result = await runCli(["db", "export", "--db", server.dbPath]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/in use by a running petstore/);
    } finally {
      await server.stop();
    }
  });
});
