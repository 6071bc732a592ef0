// The kept listings (issue 20): on the file engine a listing's finished answer is kept per URL
// until a pet changes; these check that no change is ever answered from before it, over both
// engines (PostgreSQL keeps nothing, and must answer the same).
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PageCache } from "../../src/server/internal/page-cache.js";
import { json } from "../helpers/assertions.js";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  for (let i = 0; i < 3; i++) await server.api("/pets", { json: { name: `kept ${i}`, categoryId: 1 } });
});
afterAll(() => server.close());

const names = async (path: string) => ((await json(await server.api(path))) as { name: string }[]).map((pet) => pet.name);

describe("a kept listing is never older than the last change", () => {
  it("a create, an update and a delete each show at once on the same URL, each with the ETag of what the page then holds", async () => {
    const path = "/pets?limit=100";
    const first = await server.api(path);
    const etags = [first.headers.get("etag")];
    const created = (await json(await server.api("/pets", { json: { name: "Newcomer", categoryId: 2 } }))) as { id: number };
    const afterCreate = await server.api(path);
    etags.push(afterCreate.headers.get("etag"));
    expect(((await json(afterCreate)) as { name: string }[]).at(-1)?.name).toBe("Newcomer");

    const patched = await server.api(`/pets/${created.id}`, {
      method: "PATCH",
      body: JSON.stringify({ name: "Renamed" }),
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(patched.status).toBe(200);
    const afterUpdate = await server.api(path);
    etags.push(afterUpdate.headers.get("etag"));
    expect(((await json(afterUpdate)) as { name: string }[]).at(-1)?.name).toBe("Renamed");

    expect((await server.api(`/pets/${created.id}`, { method: "DELETE" })).status).toBe(204);
    const afterDelete = await server.api(path);
    etags.push(afterDelete.headers.get("etag"));
    expect(await names(path)).not.toContain("Renamed");
    // After the delete the page holds what it held at first: the same content, the same tag.
    expect(new Set(etags.slice(0, 3)).size).toBe(3);
    expect(etags[3]).toBe(etags[0]);
  });

  it("an ETag kept from before a change no longer gets a 304", async () => {
    const path = "/pets?limit=2";
    const etag = (await server.api(path)).headers.get("etag")!;
    expect((await server.api(path, { headers: { "if-none-match": etag } })).status).toBe(304);
    await server.api("/pets/1", { method: "PATCH", body: JSON.stringify({ name: "Changed" }), headers: { "content-type": "application/merge-patch+json" } });
    const after = await server.api(path, { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(((await json(after)) as { name: string }[])[0]?.name).toBe("Changed");
  });

  it("the Link of a kept page names the host each request asked for", async () => {
    const link = (host: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        const url = new URL(`${server.baseUrl}/pets?limit=1`);
        const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { host, authorization: `Bearer ${ADMIN_KEY}` } }, (res) => {
          res.resume();
          resolve(res.headers.link as string | undefined);
        });
        req.on("error", reject).end();
      });
    expect(await link("one.example")).toMatch(/^<http:\/\/one\.example\/v1\/pets\?limit=1&cursor=/);
    expect(await link("two.example:8080")).toMatch(/^<http:\/\/two\.example:8080\/v1\/pets\?limit=1&cursor=/);
    expect(await link("one.example")).toMatch(/^<http:\/\/one\.example\/v1\/pets\?/);
  });

  it("a bad query is refused every time, never answered from a kept page", async () => {
    for (let i = 0; i < 2; i++) {
      const response = await server.api("/pets?limit=0");
      expect(response.status).toBe(400);
      expect(((await json(response)) as { code: string }).code).toBe("invalid_parameter");
    }
  });
});

describe("PageCache", () => {
  it("answers only at the version an entry was kept at, and drops the oldest past its capacity", () => {
    const cache = new PageCache<string>(2);
    cache.set("a", 1, "A1");
    expect(cache.get("a", 1)).toBe("A1");
    expect(cache.get("a", 2)).toBeUndefined();
    cache.set("b", 1, "B1");
    cache.set("c", 1, "C1");
    expect(cache.size).toBe(2);
    expect(cache.get("a", 1)).toBeUndefined();
    expect(cache.get("b", 1)).toBe("B1");
    expect(cache.get("c", 1)).toBe("C1");
  });
});
