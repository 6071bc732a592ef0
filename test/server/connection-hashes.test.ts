// The key hash kept per connection (issue 20): one keep-alive connection that changes keys, or is
// given a revoked or unknown one, is judged by the key of each request, never by the last one.
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashOnConnection } from "../../src/server/keys/connection-hashes.js";
import { hashApiKey } from "../../src/server/keys/secrets.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
// One connection only: every request below goes over the same socket, one after another.
const oneConnection = new Agent({ connections: 1, pipelining: 1 });
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await oneConnection.close();
  await server.close();
});

async function statusWith(key: string): Promise<{ status: number; remaining: string | undefined }> {
  const response = await request(`${server.baseUrl}/pets?limit=1`, { dispatcher: oneConnection, headers: { authorization: `Bearer ${key}` } });
  await response.body.text();
  return { status: response.statusCode, remaining: response.headers["x-ratelimit-remaining"] as string | undefined };
}

// The same key with its last character changed: always a different key, whatever that character was.
function unknownLike(key: string): string {
  return `${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`;
}

describe("one connection, several keys", () => {
  it("each request is judged by its own key: valid, unknown, another valid, revoked", async () => {
    const first = await createKey(server, { plan: "pro", name: "first" });
    const second = await createKey(server, { plan: "free", name: "second" });
    expect((await statusWith(first.key)).status).toBe(200);
    expect((await statusWith(first.key)).status).toBe(200);
    expect((await statusWith(unknownLike(first.key))).status).toBe(401);
    const asSecond = await statusWith(second.key);
    expect(asSecond.status).toBe(200);
    // Counted against the second key's own quota (free: 60 a minute), not the first's.
    expect(asSecond.remaining).toBe("59");
    expect((await statusWith(first.key)).status).toBe(200);
    expect((await server.api(`/keys/${first.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await statusWith(first.key)).status).toBe(401);
  });
});

describe("hashOnConnection", () => {
  it("gives hashApiKey's hash, kept per connection and per token", () => {
    const a = {};
    const b = {};
    expect(hashOnConnection("ps_one", a)).toBe(hashApiKey("ps_one"));
    expect(hashOnConnection("ps_one", a)).toBe(hashApiKey("ps_one"));
    expect(hashOnConnection("ps_two", a)).toBe(hashApiKey("ps_two"));
    expect(hashOnConnection("ps_one", b)).toBe(hashApiKey("ps_one"));
    expect(hashOnConnection("ps_two", undefined)).toBe(hashApiKey("ps_two"));
  });
});
