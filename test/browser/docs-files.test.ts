// The files of /docs over plain HTTP: what the page is sent, its CSP, caching and compression, and
// that it sits outside the API (no key, not in the document, counted apart from the anonymous limit).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { clearOfWindowEnd } from "../helpers/window-edge.js";

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const swaggerUi = createRequire(import.meta.url)("swagger-ui-dist/package.json") as { version: string };
const packageFile = (name: string) => readFile(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const get = (path: string, headers: Record<string, string> = {}, method = "GET") => fetch(`${server.origin}${path}`, { method, headers });

describe("GET /docs", () => {
  it("the page: HTML naming only files of /docs, with the CSP, no-cache and the rate-limit headers of its own bound", async () => {
    const response = await get("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toBe(CSP);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("etag")).toMatch(/^"docs-[\w-]{16}"$/);
    expect(response.headers.get("x-ratelimit-limit")).toBe("120");
    expect(response.headers.get("ratelimit-policy")).toBe('"minute";q=120;w=60, "day";q=2000;w=86400');
    const html = await response.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources.sort()).toEqual(["/docs/docs-init.js", "/docs/docs.css", "/docs/favicon-32x32.png", "/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css"]);
    expect(html).not.toMatch(/<script>|<style|style="/);
  });

  it("Swagger UI's files come from the installed package, cached a day under a tag naming its version", async () => {
    for (const [name, type] of [["swagger-ui-bundle.js", "text/javascript; charset=utf-8"], ["swagger-ui.css", "text/css; charset=utf-8"], ["favicon-32x32.png", "image/png"]]) {
      // fetch decodes what it gets; each coding is tagged as itself.
      const response = await get(`/docs/${name}`, { "accept-encoding": "gzip, br" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
      const coding = response.headers.get("content-encoding");
      expect(coding).toBe(type === "image/png" ? null : "br");
      expect(response.headers.get("etag")).toBe(`"swagger-ui-${swaggerUi.version}-${name}${coding ? `-${coding}` : ""}"`);
      expect(Buffer.from(await response.arrayBuffer()).equals(await packageFile(name!))).toBe(true);
    }
  });

  it("our init script starts Swagger UI on this server's document, without the outside validator", async () => {
    const response = await get("/docs/docs-init.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const script = await response.text();
    expect(script).toContain('new URL("/v1", window.location.href)');
    expect(script).toContain("validatorUrl: null");
  });

  it("If-None-Match with the current tag: 304 without a body; HEAD: the headers without a body", async () => {
    const etag = (await get("/docs/swagger-ui.css")).headers.get("etag")!;
    const notModified = await get("/docs/swagger-ui.css", { "if-none-match": `W/${etag}, "other"` });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("etag")).toBe(etag);
    expect(await notModified.text()).toBe("");
    const head = await get("/docs", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await head.text()).toBe("");
  });

  it("/favicon.ico, which Chromium always asks for, is Swagger UI's icon, not a 404", async () => {
    const response = await get("/favicon.ico");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await response.arrayBuffer()).equals(await packageFile("favicon-32x32.png"))).toBe(true);
  });

  it("any other file of the package (or path) is a 404 Error; another method a 405 with Allow", async () => {
    for (const path of ["/docs/index.html", "/docs/swagger-initializer.js", "/docs/package.json", "/docs/..%2Fpackage.json"]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ code: "not_found", status: 404 });
    }
    const post = await get("/docs", {}, "POST");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(await post.json()).toEqual({ code: "method_not_allowed", message: "method POST is not allowed here; allowed: GET, HEAD", status: 405 });
  });

  it("is not counted against the anonymous rate limit, and is not an operation of the document", async () => {
    // The server runs on the wall clock: the counts compared here must fall in one minute.
    await clearOfWindowEnd(2_000);
    const before = await server.api("/pets", { key: null });
    const remaining = Number(before.headers.get("x-ratelimit-remaining"));
    for (let i = 0; i < 3; i++) await get("/docs");
    const after = await server.api("/pets", { key: null });
    expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);
    const document = (await (await server.api("/openapi.json", { key: null })).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.includes("docs"))).toEqual([]);
  });
});
