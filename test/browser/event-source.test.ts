// Browsers as clients of the API (serve --cors-origin), in Debian's headless Chromium: a page
// served from another origin asks for a ticket with its key, opens `new EventSource(...)` on
// /v1/events and receives pet.created; a page on an origin not allowed can read nothing.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, watchedPage } from "../helpers/browser.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";

/** The browser app: its page and script, served from a second server (another port: another origin). */
const APP_HTML = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>app</title></head><body><script src="/app.js"></script></body></html>';
const APP_JS = `
const { base, key, ticket } = JSON.parse(decodeURIComponent(location.hash.slice(1)));
window.opened = false;
async function getTicket() {
  if (ticket) return { ticket };
  const response = await fetch(base + "/events/tickets", { method: "POST", headers: { authorization: "Bearer " + key } });
  return { ticket: (await response.json()).ticket, status: response.status, remaining: response.headers.get("x-ratelimit-remaining") };
}
window.result = getTicket().then(
  (issued) =>
    new Promise((resolve) => {
      const source = new EventSource(base + "/events?types=pet.created&ticket=" + encodeURIComponent(issued.ticket));
      source.onopen = () => (window.opened = true);
      source.addEventListener("pet.created", (event) => {
        source.close();
        resolve({ issued, type: event.type, lastEventId: event.lastEventId, data: JSON.parse(event.data).data });
      });
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) resolve({ issued, error: "closed" });
      };
    }),
  (error) => ({ error: String(error) }),
);
`;

let app: Server;
let appPort: number;
let api: TestServer;
let browser: Browser;
let key: string;

beforeAll(async () => {
  app = createServer((request, response) => {
    const js = request.url === "/app.js";
    response.writeHead(200, { "content-type": js ? "text/javascript" : "text/html", "cache-control": "no-store" }).end(js ? APP_JS : APP_HTML);
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appPort = (app.address() as AddressInfo).port;
  [api, browser] = await Promise.all([startTestServer({ corsOrigins: [`http://127.0.0.1:${appPort}`] }), launchBrowser()]);
  key = (await createKey(api, { plan: "pro", name: "browser app" })).key;
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await new Promise((resolve) => app?.close(resolve));
});

/** Opens the app on `host` (127.0.0.1 is allowed; localhost, the same server, is another origin). */
async function openApp(host: string, params: Record<string, string>) {
  const watched = await watchedPage(browser);
  const hash = encodeURIComponent(JSON.stringify({ base: api.baseUrl, ...params }));
  await watched.page.goto(`http://${host}:${appPort}/#${hash}`);
  return watched;
}

describe("a browser app on an allowed origin", () => {
  it("gets a ticket with fetch (reading the rate-limit headers), and its EventSource receives pet.created", async () => {
    const { page, problems } = await openApp("127.0.0.1", { key });
    await page.waitForFunction(() => (globalThis as unknown as { opened: boolean }).opened, { timeout: 10_000 });
    const created = await api.api("/pets", { json: { name: "Rex", categoryId: 7 } });
    expect(created.status).toBe(201);
    const result = await page.evaluate(() => (globalThis as unknown as { result: Promise<unknown> }).result);
    expect(result).toEqual({
      issued: { ticket: expect.stringMatching(/^evt_key_/), status: 200, remaining: expect.stringMatching(/^\d+$/) },
      type: "pet.created",
      lastEventId: expect.stringMatching(/^\d+$/),
      data: { id: 1, name: "Rex", categoryId: 7, status: "available" },
    });
    // The page closed its stream itself once the event came: the one "failed" request is that.
    expect(problems.filter((problem) => !/\/v1\/events\?.* net::ERR_ABORTED$/.test(problem))).toEqual([]);
    await page.close();
  });
});

describe("a browser app on another origin", () => {
  it("cannot read the ticket answer: the browser blocks it (no CORS header)", async () => {
    const { page, problems } = await openApp("localhost", { key });
    const result = await page.evaluate(() => (globalThis as unknown as { result: Promise<unknown> }).result);
    expect(result).toEqual({ error: "TypeError: Failed to fetch" });
    expect(problems.some((problem) => problem.includes("blocked by CORS policy"))).toBe(true);
    await page.close();
  });

  it("its EventSource, even with a valid ticket, is refused by the browser and closed", async () => {
    const ticket = ((await (await api.api("/events/tickets", { method: "POST", key })).json()) as { ticket: string }).ticket;
    const { page } = await openApp("localhost", { ticket });
    const result = await page.evaluate(() => (globalThis as unknown as { result: Promise<unknown> }).result);
    expect(result).toEqual({ issued: { ticket }, error: "closed" });
    expect(await page.evaluate(() => (globalThis as unknown as { opened: boolean }).opened)).toBe(false);
    await page.close();
  });
});
