// listPets' q and sort, over the real listener (and, below, app.fetch) on the engine of the vitest
// project: names found in any case (folded, NFC), each order walked by its Link, the filters and
// order carried to the next page, conditional GETs and kept pages told apart by q and sort, and
// every bad value a 400 invalid_parameter naming it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../src/store/store.js";
import { expectError, json } from "../helpers/assertions.js";
import { checkResponse } from "../helpers/conformance.js";
import { memoryApp } from "../helpers/memory-app.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { ENGINES } from "../store/support.js";

const STATUSES = ["available", "pending", "sold"] as const;
// Index: status is STATUSES[i % 3], category 1 + i % 2. "E\u0301MILE" is É decomposed.
const NAMES = ["Rex", "émile", "Max", "T-REX", "E\u0301MILE", "rexford", "Bella", "Zed", "Ärger", "Straße", "max"];
const newPet = (i: number) => ({ name: NAMES[i]!, categoryId: 1 + (i % 2), status: STATUSES[i % 3]! });
// Folded names by code point, then id: ä (U+E4) and é (U+E9) after every ASCII letter.
const BY_NAME = [6, 2, 10, 0, 5, 9, 3, 7, 8, 1, 4];

const NEXT = /^<([^>]+)>; rel="next"$/;
const nextOf = (response: Response) => NEXT.exec(response.headers.get("link") ?? "")?.[1];

type Get = (url: string, headers?: Record<string, string>) => Promise<Response>;

/** Follows Link rel="next" from `first` to the last page: the indexes of the pets, per page, and each Link. */
async function walk(get: Get, first: string, ids: number[]): Promise<{ pages: number[][]; links: string[] }> {
  const pages: number[][] = [];
  const links: string[] = [];
  for (let url: string | undefined = first; url !== undefined; ) {
    const response = await get(url);
    expect(response.status, await response.clone().text()).toBe(200);
    pages.push(((await json(response)) as { id: number }[]).map((pet) => ids.indexOf(pet.id)));
    url = nextOf(response);
    if (url !== undefined) links.push(url);
  }
  return { pages, links };
}

const BAD_INPUT: Array<[string, string, string]> = [
  ["q empty", "/pets?q=", "q must not be empty: leave q out to list every pet"],
  ["q of 201 characters", `/pets?q=${"a".repeat(201)}`, "q must be at most 200 characters, got 201"],
  ["q of 201 é", `/pets?q=${encodeURIComponent("é".repeat(201))}`, "q must be at most 200 characters, got 201"],
  ["q twice", "/pets?q=rex&q=max", "q must be given at most once"],
  ["sort=size", "/pets?sort=size", 'sort must be one of id, -id, name, -name, got "size"'],
  ["sort=NAME", "/pets?sort=NAME", 'sort must be one of id, -id, name, -name, got "NAME"'],
  ["sort empty", "/pets?sort=", 'sort must be one of id, -id, name, -name, got ""'],
  ["an unknown parameter", "/pets?x=1", "x is not a known query parameter (known: limit, status, categoryId, q, sort, cursor)"],
];

/** The cases every engine answers alike, through `get` (a listener or app.fetch) at `base`. */
function sharedCases(context: () => { get: Get; base: string; ids: number[] }) {
  it("finds names that contain q in any case, NFC-normalised and case-folded", async () => {
    const { get, base, ids } = context();
    const found = async (q: string) => (await walk(get, `${base}/pets?q=${encodeURIComponent(q)}`, ids)).pages.flat();
    expect(await found("rex")).toEqual([0, 3, 5]);
    expect(await found("ÉMILE")).toEqual([1, 4]);
    expect(await found("e\u0301mi")).toEqual([1, 4]);
    expect(await found("STRASSE")).toEqual([9]);
    expect(await found("emile")).toEqual([]);
    expect(await found("%")).toEqual([]);
  });

  it.each([
    ["id", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    ["-id", [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]],
    ["name", BY_NAME],
    ["-name", [...BY_NAME].reverse()],
  ])("sort=%s: every pet once, in order, three a page by the Link", async (sort, order) => {
    const { get, base, ids } = context();
    const { pages, links } = await walk(get, `${base}/pets?limit=3&sort=${sort}`, ids);
    expect(pages.flat()).toEqual(order);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 3, 2]);
    for (const link of links) expect(link).toMatch(new RegExp(`^${base}/pets\\?limit=3&sort=${sort}&cursor=[\\w-]+$`));
  });

  it("combines q with status, categoryId, limit and the cursor; the Link carries them all", async () => {
    const { get, base, ids } = context();
    const inCategory = await walk(get, `${base}/pets?categoryId=1&q=E&sort=-name&limit=1`, ids);
    expect(inCategory.pages).toEqual([[4], [8], [0], [6]]);
    for (const link of inCategory.links) expect(link).toMatch(new RegExp(`^${base}/pets\\?limit=1&categoryId=1&q=E&sort=-name&cursor=[\\w-]+$`));
    // émile (1) and E\u0301MILE (4) fold alike: the cursor between them holds the id too.
    const pending = await walk(get, `${base}/pets?status=pending&q=e&sort=name&limit=1`, ids);
    expect(pending.pages).toEqual([[7], [1], [4]]);
    const both = await walk(get, `${base}/pets?status=available&categoryId=2&q=r`, ids);
    expect(both.pages).toEqual([[3, 9]]);
  });

  it.each(BAD_INPUT)("%s: 400 invalid_parameter naming it", async (_case, path, message) => {
    const { get, base } = context();
    expect(await expectError(await get(`${base}${path}`), 400, "invalid_parameter")).toBe(message);
  });

  it("takes q of 200 characters, astral ones too", async () => {
    const { get, base } = context();
    const response = await get(`${base}/pets?q=${encodeURIComponent("🐕".repeat(200))}`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual([]);
  });

  it("answers a text or cursor holding U+0000, which no PostgreSQL text can, like any other", async () => {
    const { get, base } = context();
    const response = await get(`${base}/pets?q=a%00b`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual([]);
    const cursor = Buffer.from("n1:rex\0", "utf8").toString("base64url");
    const after = await get(`${base}/pets?sort=name&cursor=${cursor}`);
    expect(after.status).toBe(200);
    expect(((await json(after)) as { name: string }[]).map((pet) => pet.name)).toEqual(["rexford", "Straße", "T-REX", "Zed", "Ärger", "émile", "E\u0301MILE"]);
  });

  it("refuses a cursor in another order than it was made for", async () => {
    const { get, base } = context();
    const byName = nextOf(await get(`${base}/pets?sort=name&limit=2`))!;
    const cursor = new URL(byName).searchParams.get("cursor")!;
    expect(await expectError(await get(`${base}/pets?limit=2&cursor=${cursor}`), 400, "invalid_parameter")).toBe(
      "cursor was made for sort=name, not sort=id: follow the Link header of the previous page, or start again without a cursor",
    );
    const byId = new URL(nextOf(await get(`${base}/pets?limit=2`))!).searchParams.get("cursor")!;
    expect(await expectError(await get(`${base}/pets?sort=-name&cursor=${byId}`), 400, "invalid_parameter")).toBe(
      "cursor was made for sort=id, not sort=-name: follow the Link header of the previous page, or start again without a cursor",
    );
  });
}

describe("q and sort over a real listener", () => {
  let server: TestServer;
  const ids: number[] = [];
  const get: Get = (url, headers) => server.api(url, { headers });

  beforeAll(async () => {
    server = await startTestServer();
    for (let i = 0; i < NAMES.length; i++) ids.push((await json(await server.api("/pets", { json: newPet(i) }))).id);
  });
  afterAll(() => server.close());

  sharedCases(() => ({ get, base: server.baseUrl, ids }));

  it("answers If-None-Match per q and sort, and keeps no page for another q or sort", async () => {
    const first = await get(`${server.baseUrl}/pets?q=rex`);
    const etag = first.headers.get("etag")!;
    expect((await json(first)).map((pet: { name: string }) => pet.name)).toEqual(["Rex", "T-REX", "rexford"]);
    expect((await get(`${server.baseUrl}/pets?q=rex`, { "if-none-match": etag })).status).toBe(304);
    // Each of these follows the kept /pets?q=rex: none may be answered with it.
    const names = async (path: string) => ((await json(await get(`${server.baseUrl}${path}`))) as { name: string }[]).map((pet) => pet.name);
    expect(await names("/pets?q=REX")).toEqual(["Rex", "T-REX", "rexford"]);
    expect(await names("/pets?q=max")).toEqual(["Max", "max"]);
    expect(await names("/pets?q=rex&sort=-name")).toEqual(["T-REX", "rexford", "Rex"]);
    expect(await names("/pets?q=rex&sort=name")).toEqual(["Rex", "rexford", "T-REX"]);
    const other = await get(`${server.baseUrl}/pets?q=rex&sort=-id`, { "if-none-match": etag });
    expect(other.status).toBe(200);
    expect((await json(other)).map((pet: { name: string }) => pet.name)).toEqual(["rexford", "T-REX", "Rex"]);
  });

  it("finds a renamed pet by its new name at once; the page's ETag changes", async () => {
    const before = await get(`${server.baseUrl}/pets?q=zed`);
    const etag = before.headers.get("etag")!;
    expect((await json(before)).length).toBe(1);
    const renamed = await server.api(`/pets/${ids[7]}`, {
      method: "PATCH",
      body: JSON.stringify({ name: "Zedekiah" }),
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(renamed.status).toBe(200);
    const after = await get(`${server.baseUrl}/pets?q=zed`, { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect((await json(after)).map((pet: { name: string }) => pet.name)).toEqual(["Zedekiah"]);
    expect((await get(`${server.baseUrl}/pets?q=dekiah`)).status).toBe(200);
    await server.api(`/pets/${ids[7]}`, { method: "PATCH", body: JSON.stringify({ name: "Zed" }), headers: { "content-type": "application/merge-patch+json" } });
  });

  it("walks by name while pets are added, renamed and removed between pages: the others once, in order", async () => {
    const patch = (i: number, name: string) =>
      server.api(`/pets/${ids[i]}`, { method: "PATCH", body: JSON.stringify({ name }), headers: { "content-type": "application/merge-patch+json" } });
    const first = await get(`${server.baseUrl}/pets?sort=name&limit=4`);
    expect(((await json(first)) as { id: number }[]).map((pet) => ids.indexOf(pet.id))).toEqual([6, 2, 10, 0]);
    // Added before the cursor (not listed) and after it (listed); Straße renamed from ahead of
    // the cursor to behind it (not listed); rexford, ahead, removed.
    expect((await server.api("/pets", { json: { name: "Aaron", categoryId: 1 } })).status).toBe(201);
    expect((await server.api("/pets", { json: { name: "Yolanda", categoryId: 1 } })).status).toBe(201);
    expect((await patch(9, "Abel")).status).toBe(200);
    expect((await server.api(`/pets/${ids[5]}`, { method: "DELETE" })).status).toBe(204);
    const names: string[] = [];
    for (let url = nextOf(first); url !== undefined; ) {
      const response = await get(url);
      names.push(...((await json(response)) as { name: string }[]).map((pet) => pet.name));
      url = nextOf(response);
    }
    expect(names).toEqual(["T-REX", "Yolanda", "Zed", "Ärger", "émile", "E\u0301MILE"]);
  });
});

describe.each(ENGINES.slice(-1))("q and sort over app.fetch ($name)", ({ open }) => {
  const ADMIN = "ps_pet_search_test_admin_key_0123456789";
  const base = "http://petstore.test/v1";
  let store: Store;
  let get: Get;
  const ids: number[] = [];

  beforeAll(async () => {
    const built = await memoryApp({ adminKey: ADMIN, open });
    store = built.store;
    get = async (url, headers = {}) => {
      const response = await built.app.fetch(new Request(url, { headers: { authorization: `Bearer ${ADMIN}`, ...headers } }));
      await checkResponse("GET", url, response.clone());
      return response;
    };
    for (let i = 0; i < NAMES.length; i++) ids.push((await store.pets.create(newPet(i))).id);
  });
  afterAll(() => store.close());

  sharedCases(() => ({ get, base, ids }));
});
