import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, expectError } from "../helpers/assertions.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const STATUSES = ["available", "pending", "sold"] as const;
let server: TestServer;
const created: { id: number; status: string }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  for (let i = 0; i < 45; i++) {
    const status = STATUSES[i % 3];
    const response = await server.api("/pets", { json: { name: `pet ${i}`, categoryId: 1 + (i % 4), status } });
    created.push(await json(response));
  }
});
afterAll(() => server.close());

/** Follows Link rel="next" from the first page to the last, as a client would. */
async function walk(firstPath: string): Promise<{ ids: number[]; pages: number[] }> {
  const ids: number[] = [];
  const pages: number[] = [];
  let url: string | undefined = `${server.baseUrl}${firstPath}`;
  while (url) {
    const response = await server.api(url);
    expect(response.status).toBe(200);
    const page = (await json(response)) as { id: number }[];
    pages.push(page.length);
    ids.push(...page.map((pet) => pet.id));
    const link = response.headers.get("link");
    url = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
    if (link) expect(url).toMatch(new RegExp(`^${server.baseUrl}/pets\\?`));
  }
  return { ids, pages };
}

describe("GET /v1/pets", () => {
  it("returns 20 pets by default, ordered by id, as a bare array", async () => {
    const response = await server.api("/pets");
    const body = await json(response);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((pet: { id: number }) => pet.id)).toEqual(created.slice(0, 20).map((pet) => pet.id));
    expect(response.headers.get("link")).toMatch(/rel="next"$/);
  });

  it("walks every page without a filter: all ids once, in order, no Link on the last page", async () => {
    const { ids, pages } = await walk("/pets?limit=10");
    expect(ids).toEqual(created.map((pet) => pet.id));
    expect(pages).toEqual([10, 10, 10, 10, 5]);
  });

  it("walks every page with a status filter", async () => {
    const { ids, pages } = await walk("/pets?status=sold&limit=4");
    expect(ids).toEqual(created.filter((pet) => pet.status === "sold").map((pet) => pet.id));
    expect(pages).toEqual([4, 4, 4, 3]);
  });

  it("walks every page of a category, with and without a status; Link keeps both filters", async () => {
    const inCategory = created.filter((_, i) => 1 + (i % 4) === 2);
    const category = await walk("/pets?categoryId=2&limit=5");
    expect(category.ids).toEqual(inCategory.map((pet) => pet.id));
    expect(category.pages).toEqual([5, 5, 1]);
    const first = await server.api("/pets?status=pending&categoryId=2&limit=2");
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get("link") ?? "")?.[1] ?? "";
    expect(next).toMatch(new RegExp(`^${server.baseUrl}/pets\\?limit=2&status=pending&categoryId=2&cursor=[\\w-]+$`));
    const both = await walk("/pets?status=pending&categoryId=2&limit=2");
    expect(both.ids).toEqual(inCategory.filter((pet) => pet.status === "pending").map((pet) => pet.id));
    expect(both.ids).toHaveLength(4);
    expect(both.pages).toEqual([2, 2]);
    expect(await json(await server.api("/pets?categoryId=999"))).toEqual([]);
  });

  it("has no Link when the page holds exactly what is left", async () => {
    const response = await server.api("/pets?status=pending&limit=15");
    expect((await json(response)).length).toBe(15);
    expect(response.headers.get("link")).toBeNull();
  });

  it("accepts limit 1 and 100", async () => {
    expect((await json(await server.api("/pets?limit=1"))).length).toBe(1);
    expect((await json(await server.api("/pets?limit=100"))).length).toBe(45);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=", "limit"],
    ["limit=5&limit=6", "limit"],
    ["status=lost", "status"],
    ["status=SOLD", "status"],
    ["cursor=garbage!", "cursor"],
    ["cursor=cDA", "cursor"],
    ["cursor=", "cursor"],
    ["stauts=sold", "stauts"],
    ["categoryId=0", "categoryId"],
    ["categoryId=x", "categoryId"],
    ["categoryId=1&categoryId=2", "categoryId"],
  ])("refuses ?%s with 400 invalid_parameter naming %s", async (query, name) => {
    const message = await expectError(await server.api(`/pets?${query}`), 400, "invalid_parameter");
    expect(message.startsWith(name)).toBe(true);
  });
});
