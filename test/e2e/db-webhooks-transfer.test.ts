// Webhook endpoints and deliveries through `petstore db migrate`, `export`, `import` and `backup`:
// a file store with two endpoints (one with a rotated secret in its grace) and succeeded, failed
// and pending deliveries goes to PostgreSQL with every field, a server there sends what was
// pending, signed as before, and PostgreSQL's endpoints and deliveries come back to a file.
import { readFile, stat } from "node:fs/promises";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers/run-cli.js";
import { startServeProcess, tempDbPath, type ServeProcess } from "../helpers/serve-process.js";
import { freshDatabase, type TestDatabase } from "../helpers/test-backend.js";
import { startReceiver, type Received, type WebhookReceiver } from "../helpers/webhook-receiver.js";

interface WebhookData {
  nextWebhookId?: number;
  webhooks?: Record<string, unknown>[];
  nextDeliveryId?: number;
  deliveries?: Record<string, unknown>[];
}

type Json = Record<string, unknown>;

let steady: WebhookReceiver;
let flaky: WebhookReceiver;
let source: string;
let fileData: WebhookData;
let postgres: TestDatabase;
const secrets = { steady: "", flaky: "", flakyBefore: "" };

async function api(server: ServeProcess, path: string, body?: unknown, method = body === undefined ? "GET" : "POST"): Promise<Json> {
  const contentType = method === "PATCH" ? "application/merge-patch+json" : "application/json";
  const headers = { authorization: `Bearer ${server.adminKey}`, "content-type": contentType };
  const response = await fetch(`${server.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return text === "" ? {} : (JSON.parse(text) as Json);
}

/** Polls GET .../deliveries until `done` holds for the listed ones. */
async function deliveriesUntil(server: ServeProcess, webhookId: number, done: (listed: Json[]) => boolean): Promise<Json[]> {
  for (const started = Date.now(); Date.now() - started < 15_000; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const listed = (await api(server, `/webhooks/${webhookId}/deliveries?limit=100`)) as unknown as Json[];
    if (done(listed)) return listed;
  }
  throw new Error(`the deliveries of endpoint ${webhookId} did not settle`);
}

const webhookPart = ({ nextWebhookId, webhooks, nextDeliveryId, deliveries }: WebhookData): WebhookData => ({ nextWebhookId, webhooks, nextDeliveryId, deliveries });

/** What PostgreSQL holds, read with SQL here rather than through the code under test. */
async function postgresWebhookData(url: string): Promise<WebhookData & { leased: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const iso = (value: Date | null) => value?.toISOString() ?? null;
    const next = async (sequence: string) => {
      const { rows } = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value, is_called FROM ${sequence}`);
      return Number(rows[0]!.last_value) + (rows[0]!.is_called ? 1 : 0);
    };
    const webhooks = (await client.query("SELECT * FROM webhooks ORDER BY id")).rows.map((row) => ({
      id: Number(row.id),
      url: row.url,
      types: row.types,
      description: row.description,
      enabled: row.enabled,
      secret: row.secret,
      previousSecret: row.previous_secret,
      previousSecretUntil: iso(row.previous_secret_until),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    }));
    const rows = (await client.query("SELECT * FROM webhook_deliveries ORDER BY id")).rows;
    const deliveries = rows.map((row) => ({
      id: Number(row.id),
      webhookId: Number(row.webhook_id),
      eventId: row.event_id === null ? null : Number(row.event_id),
      type: row.type,
      payload: row.payload,
      status: row.status,
      attempts: row.attempts,
      createdAt: iso(row.created_at),
      nextAttemptAt: iso(row.next_attempt_at),
      lastAttemptAt: iso(row.last_attempt_at),
      lastStatusCode: row.last_status_code,
      lastError: row.last_error,
      lastResponse: row.last_response,
      lastDurationMs: row.last_duration_ms,
    }));
    const leased = rows.filter((row) => row.lease_until !== null).length;
    return { nextWebhookId: await next("webhooks_id_seq"), webhooks, nextDeliveryId: await next("webhook_deliveries_id_seq"), deliveries, leased };
  } finally {
    await client.end();
  }
}

const signed = (secret: string, request: Received) =>
  new Webhook(secret).verify(request.body, {
    "webhook-id": String(request.headers["webhook-id"]),
    "webhook-timestamp": String(request.headers["webhook-timestamp"]),
    "webhook-signature": String(request.headers["webhook-signature"]),
  });

beforeAll(async () => {
  [steady, flaky] = [await startReceiver(), await startReceiver()];
  source = await tempDbPath();
  const server = await startServeProcess({ dbPath: source, args: ["--webhooks-allow-private"] });
  try {
    const a = await api(server, "/webhooks", { url: steady.url, types: ["pet.created"], description: "steady" });
    secrets.steady = String(a.secret);
    const b = await api(server, "/webhooks", { url: flaky.url });
    secrets.flakyBefore = String(b.secret);
    secrets.flaky = String((await api(server, `/webhooks/${String(b.id)}/rotate-secret`, { graceSeconds: 86_400 })).secret);
    // Failed: pending when its endpoint is disabled (then enabled again).
    flaky.answer({ status: 503, headers: { "retry-after": "3600" }, body: "down for an hour" });
    await api(server, "/pets", { name: "Rex", categoryId: 1 });
    await flaky.waitFor(1);
    await deliveriesUntil(server, Number(b.id), (listed) => listed[0]?.attempts === 1);
    await api(server, `/webhooks/${String(b.id)}`, { enabled: false }, "PATCH");
    await api(server, `/webhooks/${String(b.id)}`, { enabled: true }, "PATCH");
    await api(server, `/webhooks/${String(a.id)}/test`, {});
    // Pending: refused once, due again within seconds of the stop.
    flaky.answer({ status: 500, headers: { "retry-after": "1" }, body: "busy ✗ \"quoted\"" });
    await api(server, "/pets", { name: "Tom", categoryId: 1 });
    await steady.waitFor(3);
    await flaky.waitFor(2);
    await deliveriesUntil(server, Number(b.id), (listed) => listed[0]?.attempts === 1);
  } finally {
    expect(await server.stop()).toBe(0);
  }
  fileData = webhookPart(JSON.parse(await readFile(source, "utf8")) as WebhookData);
  postgres = await freshDatabase();
}, 60_000);

afterAll(async () => {
  await steady.close();
  await flaky.close();
});

describe("webhooks through db migrate, export, import and backup", () => {
  it("file -> PostgreSQL keeps every field of the endpoints (secrets, the previous one and its grace) and of every delivery, and both counters", async () => {
    const deliveries = fileData.deliveries ?? [];
    expect(fileData.webhooks).toHaveLength(2);
    expect(fileData.webhooks?.[1]).toMatchObject({ secret: secrets.flaky, previousSecret: secrets.flakyBefore, previousSecretUntil: expect.any(String) });
    expect(deliveries.map((d) => [d.webhookId, d.type, d.status])).toEqual([
      [1, "pet.created", "succeeded"],
      [2, "pet.created", "failed"],
      [1, "webhook.test", "succeeded"],
      [1, "pet.created", "succeeded"],
      [2, "pet.created", "pending"],
    ]);
    expect(deliveries[4]).toMatchObject({ attempts: 1, lastStatusCode: 500, lastResponse: 'busy ✗ "quoted"', nextAttemptAt: expect.any(String) });

    const migrated = await runCli(["db", "migrate", "--from", source, "--to", postgres.db]);
    expect(migrated.code).toBe(0);
    const held = await postgresWebhookData(postgres.db);
    expect(held.leased).toBe(0);
    expect(webhookPart(held)).toEqual(fileData);
    expect(migrated.stderr).toMatch(/^Migrated 2 pets, \d+ keys, 0 orders, 2 webhook endpoints, 5 deliveries; the target holds 2, \d+, 0, 2, 5\.\n$/);
  }, 30_000);

  it("a server over PostgreSQL then sends the pending delivery, as stored and signed with both secrets, and numbers new ones after the old", async () => {
    const pending = fileData.deliveries!.find((d) => d.status === "pending")!;
    flaky.answer({ status: 200, body: "ok" });
    const before = flaky.received.length;
    const server = await startServeProcess({ dbPath: postgres.db, args: ["--redis", postgres.redis, "--webhooks-allow-private"] });
    try {
      const [resent] = (await flaky.waitFor(before + 1, 15_000)).slice(before);
      expect(resent!.headers["webhook-id"]).toBe(`msg_${String(pending.id)}`);
      expect(resent!.body).toBe(pending.payload);
      expect(signed(secrets.flaky, resent!)).toMatchObject({ type: "pet.created", data: { name: "Tom" } });
      expect(signed(secrets.flakyBefore, resent!)).toMatchObject({ type: "pet.created", data: { name: "Tom" } });
      await deliveriesUntil(server, Number(pending.webhookId), (listed) => listed.every((d) => d.status !== "pending"));

      const steadyBefore = steady.received.length;
      await api(server, "/pets", { name: "Kit", categoryId: 1 });
      const [fresh] = (await steady.waitFor(steadyBefore + 1)).slice(steadyBefore);
      expect(Number(String(fresh!.headers["webhook-id"]).slice(4))).toBeGreaterThanOrEqual(fileData.nextDeliveryId!);
      expect(signed(secrets.steady, fresh!)).toMatchObject({ type: "pet.created", data: { name: "Kit" } });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 40_000);

  it("PostgreSQL -> export -> file, and a backup of a server over PostgreSQL, keep every field and both counters", async () => {
    // A pending delivery written by PostgreSQL's own trigger, waiting an hour for its receiver.
    flaky.answer({ status: 503, headers: { "retry-after": "3600" }, body: "down again" });
    const server = await startServeProcess({ dbPath: postgres.db, args: ["--redis", postgres.redis, "--webhooks-allow-private"] });
    const backup = `${await tempDbPath()}.backup.json`;
    try {
      const flakyBefore = flaky.received.length;
      await api(server, "/pets", { name: "Max", categoryId: 1 });
      await flaky.waitFor(flakyBefore + 1);
      const [steadyId, flakyId] = fileData.webhooks!.map((webhook) => Number(webhook.id));
      await deliveriesUntil(server, flakyId!, (listed) => listed[0]?.status === "pending" && listed[0]?.attempts === 1);
      await deliveriesUntil(server, steadyId!, (listed) => listed.every((d) => d.status === "succeeded"));
      const saved = await runCli(["db", "backup", backup], { env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey } });
      expect(saved).toMatchObject({ code: 0, stderr: expect.stringMatching(/^Saved 4 pets, \d+ keys, 0 orders, 2 webhook endpoints, \d+ deliveries to /) });
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const held = await postgresWebhookData(postgres.db);
    expect(held.deliveries?.filter((d) => d.status === "pending")).toHaveLength(1);
    expect(held.deliveries?.length).toBeGreaterThan(fileData.deliveries!.length);

    expect(webhookPart(JSON.parse(await readFile(backup, "utf8")) as WebhookData)).toEqual(webhookPart(held));

    const exported = await runCli(["db", "export", "--db", postgres.db]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout.slice(0, exported.stdout.indexOf("\n")))).toMatchObject({ version: 3, nextWebhookId: 3, nextDeliveryId: held.nextDeliveryId });
    // --output: the same lines in a new file only its owner can read (it holds the signing secrets), never over one.
    const file = `${await tempDbPath()}.ndjson`;
    expect(await runCli(["db", "export", "--db", postgres.db, "--output", file])).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(await readFile(file, "utf8")).toBe(exported.stdout);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await runCli(["db", "export", "--db", postgres.db, "--output", file])).toMatchObject({ code: 2, stderr: expect.stringContaining(`${file} exists`) });
    const target = await tempDbPath();
    const imported = await runCli(["db", "import", file, "--db", target]);
    expect(imported.code).toBe(0);
    expect(webhookPart(JSON.parse(await readFile(target, "utf8")) as WebhookData)).toEqual(webhookPart(held));
    expect((await runCli(["db", "export", "--db", target])).stdout).toBe(exported.stdout);
  }, 60_000);
});
