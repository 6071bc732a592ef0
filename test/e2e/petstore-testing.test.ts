// `petstore/testing` as a package user imports it (package.json "exports", the built
// dist/testing.js and types/testing.d.ts): the types agree with the source, the example in
// docs/server.md is the test beside this one, and a bad seed or spec is refused before listening.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import * as published from "petstore/testing";
import { startPetstore as fromSource } from "../../src/testing/index.js";

// The declared types and the implementation agree both ways (a compile error otherwise).
const declared: typeof published.startPetstore = fromSource;
const implemented: typeof fromSource = published.startPetstore;

describe("petstore/testing", () => {
  it("is the built entry the package exports, with the source's types", () => {
    expect(typeof declared).toBe("function");
    expect(typeof implemented).toBe("function");
  });

  it("docs/server.md shows the example test word for word", async () => {
    const example = await readFile(new URL("./petstore-testing-example.test.ts", import.meta.url), "utf8");
    const docs = await readFile(new URL("../../docs/server.md", import.meta.url), "utf8");
    expect(docs).toContain("```ts\n" + example + "```\n");
  });

  it("refuses a bad seed naming the record and field, and a bad chaos spec naming the part", async () => {
    await expect(published.startPetstore({ seed: { pets: [{ name: "Rex", categoryId: 0 }] } })).rejects.toThrow("pets[0].categoryId: must be at least 1");
    await expect(published.startPetstore({ chaos: "status=418@1%" })).rejects.toThrow('"status=418@1%": the status must be one of 429, 500, 503');
  });

  it("gives the admin key, reset and close", async () => {
    const petstore = await published.startPetstore();
    const headers = { authorization: `Bearer ${petstore.adminKey}`, "content-type": "application/json" };
    await fetch(`${petstore.baseUrl}/pets`, { method: "POST", headers, body: JSON.stringify({ name: "Gone", categoryId: 1 }) });
    await petstore.reset();
    expect(await (await fetch(`${petstore.baseUrl}/pets`, { headers })).json()).toEqual([]);
    await petstore.close();
    await expect(fetch(`${petstore.baseUrl}/pets`, { headers })).rejects.toThrow();
  });
});
