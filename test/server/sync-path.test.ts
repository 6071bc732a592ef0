// Issue 20's leaner request path: over engines that answer from memory (the memory store as the
// file engine does, the memory limiter) a kept listing is answered in one synchronous pass:
// app.fetch hands back the Response itself, not a promise of one. What has to wait (a page read
// from the store, a key the store must look up, a limiter over Redis, a write's announcement)
// still does, and answers the same. Each answer is checked against the OpenAPI document.
import { describe, expect, it } from "vitest";
import type { KeyLimits } from "../../src/contract/values.js";
import { MemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import type { Decision, RateLimiter } from "../../src/limits/rate-limiter.js";
import { checkResponse } from "../helpers/conformance.js";
import { memoryApp } from "../helpers/memory-app.js";

const ADMIN = "ps_sync_path_test_admin_key_0123456789";
const URL_OF = (path: string) => `http://petstore.test/v1${path}`;

async function appOver(limiter: (now: () => number) => RateLimiter) {
  const { app, store } = await memoryApp({ adminKey: ADMIN, limiter });
  for (let i = 0; i < 3; i++) await store.pets.create({ name: `pet ${i}`, categoryId: 1, status: "available" });
  const fetch = (path: string, headers: Record<string, string> = { authorization: `Bearer ${ADMIN}` }) =>
    app.fetch(new Request(URL_OF(path), { headers })) as Response | Promise<Response>;
  return { fetch };
}

const isPromise = (value: unknown) => typeof (value as { then?: unknown }).then === "function";

describe("a kept listing over engines in memory", () => {
  it("is answered synchronously once kept, the same answer as the first one", async () => {
    const { fetch } = await appOver((now) => new MemoryRateLimiter({ now }));
    const first = fetch("/pets?limit=2");
    // The first one reads the page from the store.
    expect(isPromise(first)).toBe(true);
    const read = await first;
    const kept = fetch("/pets?limit=2");
    expect(isPromise(kept)).toBe(false);
    const answer = kept as Response;
    await checkResponse("GET", URL_OF("/pets?limit=2"), answer.clone());
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(await read.text());
    for (const name of ["etag", "link", "content-type", "x-ratelimit-limit", "ratelimit-policy", "x-request-id", "cache-control"]) {
      expect(answer.headers.get(name), name).not.toBeNull();
    }
    expect(answer.headers.get("etag")).toBe(read.headers.get("etag"));
    expect(Number(answer.headers.get("x-ratelimit-remaining"))).toBe(Number(read.headers.get("x-ratelimit-remaining")) - 1);
  });

  it("refusals are synchronous too: 401 without a key, 304 for a held ETag", async () => {
    const { fetch } = await appOver((now) => new MemoryRateLimiter({ now }));
    const etag = (await fetch("/pets?limit=2")).headers.get("etag")!;
    const unauthorized = fetch("/pets?limit=2", {});
    expect(isPromise(unauthorized)).toBe(false);
    expect((unauthorized as Response).status).toBe(401);
    const notModified = fetch("/pets?limit=2", { authorization: `Bearer ${ADMIN}`, "if-none-match": etag });
    expect(isPromise(notModified)).toBe(false);
    expect((notModified as Response).status).toBe(304);
  });

  it("waits for a limiter that cannot decide at once, and answers the same", async () => {
    // A limiter with no synchronous decision, as the Redis one: the memory limiter behind a promise.
    const { fetch } = await appOver((now) => {
      const memory = new MemoryRateLimiter({ now });
      return {
        consume: (subject: string, limits: KeyLimits): Promise<Decision> => memory.consume(subject, limits),
        peek: (subject, limits) => memory.peek(subject, limits),
        close: () => memory.close(),
      };
    });
    await fetch("/pets?limit=2");
    const answer = fetch("/pets?limit=2");
    expect(isPromise(answer)).toBe(true);
    const response = await answer;
    await checkResponse("GET", URL_OF("/pets?limit=2"), response.clone());
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-remaining")).toBe("998");
  });
});
