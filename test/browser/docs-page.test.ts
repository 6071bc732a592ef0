// GET /docs in a real browser (Debian's headless Chromium): the page loads with no console error,
// lists every operation of the served document, and "Try it out" of listPets with a key shows the
// pets with their rate-limit headers.
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, watchedPage, type WatchedPage } from "../helpers/browser.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
let browser: Browser;
let docs: WatchedPage;
let key: string;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser({ acceptInsecureCerts: true })]);
  for (const name of ["Rex", "Tom"]) await server.api("/pets", { json: { name, categoryId: 1 } });
  key = (await createKey(server, { plan: "pro", name: "browser" })).key;
  docs = await watchedPage(browser);
  await docs.page.goto(`${server.origin}/docs`);
  await docs.page.waitForSelector(".opblock", { timeout: 15_000 });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the /docs page in Chromium", () => {
  it("loads from this server only, with no console error, failed request or refused resource", () => {
    expect(docs.problems).toEqual([]);
    const outside = docs.requests.filter((url) => !url.startsWith(`${server.origin}/`) && !url.startsWith("data:"));
    expect(outside).toEqual([]);
    expect(docs.requests).toContain(`${server.origin}/v1/openapi.json`);
  });

  it("lists every operation of the served document, under its path, and every webhook, under its event type", async () => {
    type Items = Record<string, Record<string, { operationId: string }>>;
    const document = (await (await server.api("/openapi.json", { key: null })).json()) as { paths: Items; webhooks: Items };
    const expected = [...Object.entries(document.paths), ...Object.entries(document.webhooks)]
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => METHODS.includes(method))
          .map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
      )
      .sort();
    const rendered = await docs.page.$$eval(".opblock", (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector(".opblock-summary-method")?.textContent ?? "";
        const path = block.querySelector(".opblock-summary-path, .opblock-summary-path__deprecated")?.textContent ?? "";
        const operationId = block.id.split("-").at(-1);
        return `${method} ${path.replace(/\u200b/g, "")} ${operationId}`;
      }),
    );
    expect(rendered.sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(18 + 7);
  });

  it("Authorize with a key, then Try it out on listPets: 200, the pets and the rate-limit headers", async () => {
    const { page } = docs;
    await page.click(".btn.authorize");
    await page.type("#auth-bearer-value", key);
    await page.click(".modal-ux .auth-btn-wrapper .authorize");
    await page.click(".modal-ux .btn-done");
    const block = "#operations-Pets-listPets";
    await page.click(`${block} .opblock-summary-control`);
    await page.click(await page.waitForSelector(`${block} .try-out__btn`).then(() => `${block} .try-out__btn`));
    await page.click(`${block} .execute`);
    const status = await page.waitForSelector(`${block} .live-responses-table tr.response .response-col_status`, { timeout: 10_000 });
    expect(await status?.evaluate((cell) => cell.textContent)).toBe("200");
    const answer = await page.$eval(`${block} .live-responses-table tr.response .response-col_description`, (cell) => ({
      body: cell.querySelector("pre.microlight code")?.textContent ?? "",
      headers: [...cell.querySelectorAll(".headerline")].map((line) => line.textContent?.trim() ?? ""),
    }));
    expect(JSON.parse(answer.body)).toEqual([
      { id: 1, name: "Rex", categoryId: 1, status: "available" },
      { id: 2, name: "Tom", categoryId: 1, status: "available" },
    ]);
    const headers = Object.fromEntries(answer.headers.map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
    expect(headers).toMatchObject({ "x-ratelimit-limit": "300", "x-ratelimit-remaining": "299", "content-type": "application/json;charset=UTF-8" });
    expect(headers["ratelimit-policy"]).toBe('"minute";q=300;w=60,"day";q=10000;w=86400');
    expect(headers.ratelimit).toMatch(/^"minute";r=299;t=\d+,"day";r=9999;t=\d+$/);
    expect(docs.problems).toEqual([]);
  });

  it("works the same over HTTPS (serve --https): every file from the same origin, no console error", async () => {
    const secure = await startTestServer({ tls: { selfSigned: true } });
    try {
      const page = await watchedPage(browser);
      await page.page.goto(`${secure.origin}/docs`);
      await page.page.waitForSelector("#operations-Pets-listPets", { timeout: 15_000 });
      expect(secure.origin).toMatch(/^https:/);
      expect(page.problems).toEqual([]);
      expect(page.requests.filter((url) => !url.startsWith(`${secure.origin}/`) && !url.startsWith("data:"))).toEqual([]);
      expect(await page.page.$eval(".servers select", (select) => (select as unknown as { value: string }).value)).toBe(`${secure.origin}/v1`);
      await page.page.close();
    } finally {
      await secure.close();
    }
  });
});
