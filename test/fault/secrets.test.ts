// Keys and secrets against the built `petstore serve` with its request log on: a revoked key is
// refused on the next request; no secret and no stored hash ever shows in the logs or in an error
// body, wherever a client puts it; the files beside the db are readable by their owner only.
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";
import { expectErrorAnswer } from "./http-answers.js";
import { requestHead, sendRaw } from "./http-raw.js";

interface Sent {
  method: string;
  path: string;
  authorization?: string;
  contentType?: string;
  body?: string;
}

/** Every answer the test got, for the final scan of error bodies. */
const errorBodies: string[] = [];

async function send(server: ServeProcess, request: Sent): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  if (request.authorization !== undefined) headers.authorization = request.authorization;
  if (request.contentType !== undefined) headers["content-type"] = request.contentType;
  const response = await fetch(`${server.origin}${request.path}`, { method: request.method, headers, body: request.body });
  const text = await response.text();
  if (response.status >= 400) {
    errorBodies.push(text);
    expectErrorAnswer(response.status, response.headers.get("content-type"), text);
  }
  return { status: response.status, text };
}

/** Requests that carry `secret` where no secret belongs, each of them refused. */
function misplaced(secret: string, admin: string): Sent[] {
  const bearer = `Bearer ${admin}`;
  const json = "application/json";
  return [
    { method: "GET", path: `/v1/pets?api_key=${secret}`, authorization: bearer },
    { method: "GET", path: `/v1/pets?status=${secret}`, authorization: bearer },
    { method: "GET", path: `/v1/pets?limit=${secret}`, authorization: bearer },
    { method: "GET", path: `/v1/pets?cursor=${secret}`, authorization: bearer },
    { method: "GET", path: `/v1/pets?${secret}=1`, authorization: bearer },
    { method: "GET", path: `/v1/pets?limit=1&limit=${secret}&${secret}=${secret}`, authorization: bearer },
    { method: "GET", path: `/v1/pets/${secret}`, authorization: bearer },
    { method: "GET", path: `/v1/${secret}`, authorization: bearer },
    { method: "GET", path: `/${secret}` },
    { method: "GET", path: `/v1/pets/${secret}` },
    { method: "DELETE", path: `/v1/keys/${secret}`, authorization: bearer },
    { method: "PUT", path: `/v1/pets?key=${secret}`, authorization: bearer },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: json, body: secret },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: json, body: `{"name": ${secret}}` },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: json, body: `{"name":"x","categoryId":1} ${secret}` },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: json, body: `{"name":"x","categoryId":1,"note":"${secret}"` },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: json, body: JSON.stringify({ [secret]: 1, name: "x", categoryId: 1 }) },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: json, body: JSON.stringify({ name: "x", categoryId: secret }) },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: json, body: JSON.stringify({ name: secret, categoryId: 1, status: secret }) },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: json, body: JSON.stringify([secret]) },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: secret, body: "{}" },
    { method: "POST", path: "/v1/pets", authorization: bearer, contentType: `application/json; key=${secret}`, body: "[" },
    { method: "POST", path: "/v1/keys", authorization: bearer, contentType: json, body: JSON.stringify({ plan: secret }) },
    { method: "POST", path: "/v1/keys", authorization: bearer, contentType: json, body: JSON.stringify({ plan: "free", name: secret, [secret]: secret }) },
    { method: "GET", path: "/v1/pets", authorization: `Bearer ${secret}x` },
    { method: "GET", path: "/v1/pets", authorization: `Basic ${secret}` },
    { method: "GET", path: "/v1/pets", authorization: secret },
    { method: "GET", path: "/v1/pets", authorization: `Bearer ${secret} ${secret}` },
    { method: "GET", path: "/v1/pets", authorization: `Token ${secret}` },
  ];
}

/** What must never be printed: each secret, its random part, any 16 characters of it in a row, its hash. */
function forbiddenStrings(secrets: string[], hashes: string[]): string[] {
  const windows = secrets.flatMap((secret) => Array.from({ length: secret.length - 15 }, (_, at) => secret.slice(at, at + 16)));
  return [...secrets, ...secrets.map((secret) => secret.slice(3)), ...windows, ...hashes];
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe("keys and secrets", () => {
  it("a revoked key is refused from the very next request, and after a restart", async () => {
    const server = await startServeProcess();
    const admin = `Bearer ${server.adminKey}`;
    const created = await send(server, { method: "POST", path: "/v1/keys", authorization: admin, contentType: "application/json", body: '{"plan":"pro"}' });
    const { id, key } = JSON.parse(created.text) as { id: string; key: string };
    expect((await send(server, { method: "GET", path: "/v1/pets", authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await send(server, { method: "DELETE", path: `/v1/keys/${id}`, authorization: admin })).status).toBe(204);
    const refused = await send(server, { method: "GET", path: "/v1/pets", authorization: `Bearer ${key}` });
    expect(JSON.parse(refused.text)).toEqual({ code: "unauthorized", message: "the API key has been revoked", status: 401 });
    expect(await server.stop()).toBe(0);

    const again = await startServeProcess({ dbPath: server.dbPath });
    const afterRestart = await send(again, { method: "GET", path: "/v1/pets", authorization: `Bearer ${key}` });
    expect(afterRestart.status).toBe(401);
    expect(await again.stop()).toBe(0);
  });

  it("no secret and no hash in the request log, stdout or any error body, wherever the client put the secret", async () => {
    const server = await startServeProcess();
    const admin = server.adminKey;
    const secrets = [admin];
    const ids: string[] = [];
    for (const body of [{ plan: "free" }, { plan: "pro", name: "ci" }, { plan: "enterprise", perMinute: 1000, perDay: 100_000 }]) {
      const created = await send(server, { method: "POST", path: "/v1/keys", authorization: `Bearer ${admin}`, contentType: "application/json", body: JSON.stringify(body) });
      const { id, key } = JSON.parse(created.text) as { id: string; key: string };
      secrets.push(key);
      ids.push(id);
    }
    for (const secret of secrets) {
      expect((await send(server, { method: "GET", path: "/v1/pets", authorization: `Bearer ${secret}` })).status).toBe(200);
      for (const request of misplaced(secret, admin)) {
        const { status } = await send(server, request);
        expect(status, `${request.method} ${request.path}`).toBeGreaterThanOrEqual(400);
      }
      const rawAnswer = await sendRaw(server.origin, requestHead(`GET /v1/pets/${secret}\xff HTTP/1.1`, [`Authorization: Bearer ${secret}`]));
      errorBodies.push(rawAnswer?.body ?? "");
    }
    expect((await send(server, { method: "DELETE", path: `/v1/keys/${ids[0]}`, authorization: `Bearer ${admin}` })).status).toBe(204);
    expect((await send(server, { method: "GET", path: "/v1/pets", authorization: `Bearer ${secrets[1]}` })).status).toBe(401);
    const listing = await send(server, { method: "GET", path: "/v1/keys", authorization: `Bearer ${admin}` });
    expect(await server.stop()).toBe(0);

    const stored = JSON.parse(await readFile(server.dbPath, "utf8")) as { keys: { hash: string }[] };
    const hashes = stored.keys.map((record) => record.hash);
    // The db holds the SHA-256 of each created key (the environment's admin key is never stored).
    expect(hashes.sort()).toEqual(secrets.slice(1).map(sha256).sort());
    const log = server.stderr();
    expect(log).toMatch(/GET \/v1\/pets\?api_key=ps_\[redacted\] 400/);
    for (const forbidden of forbiddenStrings(secrets, [...hashes, sha256(admin)])) {
      expect(log.includes(forbidden), `the log contains ${forbidden}`).toBe(false);
      for (const body of [...errorBodies, listing.text]) expect(body.includes(forbidden), `${body} contains ${forbidden}`).toBe(false);
    }
  });

  it("the db, its lock, its counters and any other file beside it are created with mode 0600", async () => {
    const server = await startServeProcess();
    await send(server, { method: "POST", path: "/v1/keys", authorization: `Bearer ${server.adminKey}`, contentType: "application/json", body: '{"plan":"free"}' });
    expect(await modeOf(server.dbPath)).toBe(0o600);
    expect(await modeOf(`${server.dbPath}.lock`)).toBe(0o600);
    expect(await server.stop()).toBe(0);
    const files = (await readdir(dirname(server.dbPath))).filter((name) => name.startsWith(basename(server.dbPath)));
    expect(files).toEqual(expect.arrayContaining([basename(server.dbPath), `${basename(server.dbPath)}.limits.json`]));
    for (const name of files) expect(await modeOf(join(dirname(server.dbPath), name)), name).toBe(0o600);
  });
});
