// The client's one use of another package's internals (src/cli/internal/undici-parts.ts): two
// private modules of undici. An update of undici that moves or reshapes them must fail here with
// the way out, and the public path (undici's index) must give the same answers, so that falling
// back to it, or switching to it, changes nothing a command prints.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Attempt, Transport, WireRequest } from "../../src/cli/http.js";
import type { UndiciParts } from "../../src/cli/internal/undici-parts.js";
import { startFakeApi, unusedBaseUrl, type FakeApi, type FakeResponse, type RecordedRequest } from "./helpers/fake-api.js";

const require = createRequire(import.meta.url);
const undiciRoot = dirname(require.resolve("undici/package.json"));
const undiciVersion = (JSON.parse(readFileSync(join(undiciRoot, "package.json"), "utf8")) as { version: string }).version;
const PRIVATE_MODULES = ["lib/dispatcher/agent.js", "lib/api/api-request.js"];
const WAY_OUT = "src/cli/internal/undici-parts.ts imports it: point it at the module's new place, or use publicParts() there (the index)";

describe(`undici ${undiciVersion}'s private modules`, () => {
  it.each(PRIVATE_MODULES)("%s is still there", (path) => {
    expect(existsSync(join(undiciRoot, path)), `undici ${undiciVersion} has no ${path}; ${WAY_OUT}`).toBe(true);
  });

  it("export an Agent class and a request function, as undici-parts.ts expects", async () => {
    const { privatePartsUsable } = await import("../../src/cli/internal/undici-parts.js");
    expect(privatePartsUsable(), `undici ${undiciVersion} reshaped ${PRIVATE_MODULES.join(" or ")}; ${WAY_OUT}`).toBe(true);
  });

  it("are pinned: package.json names undici's exact version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.undici).toBe(undiciVersion);
  });
});

describe("the public path (undici's index) answers as the private parts do", () => {
  let api: FakeApi;
  const large = "x".repeat(33 * 1024 * 1024);
  beforeAll(async () => {
    api = await startFakeApi((request: RecordedRequest): FakeResponse => {
      if (request.path.endsWith("/html")) return { status: 502, body: "<html>bad gateway</html>" };
      if (request.path.endsWith("/missing")) return { status: 404, body: { code: "not_found", message: "no pet 9", status: 404 } };
      if (request.path.endsWith("/hang")) return { status: 200, hang: true };
      if (request.path.endsWith("/large")) return { status: 200, body: large };
      if (request.path.endsWith("/events")) return { status: 200, headers: { "content-type": "text/event-stream" }, body: "data: 1\n\n" };
      // Echoes what arrived, so the two paths are seen to send the same request too.
      const { host: _host, ...headers } = request.headers;
      return { status: request.method === "POST" ? 201 : 200, headers: { etag: '"pet-1-1"', "x-seen": JSON.stringify(headers) }, body: { method: request.method, body: request.body } };
    });
  });
  afterAll(() => api.close());

  const parts = async (): Promise<{ private: UndiciParts; public: UndiciParts }> => {
    const { privateParts, publicParts } = await import("../../src/cli/internal/undici-parts.js");
    return { private: privateParts, public: await publicParts() };
  };
  const transports = async (timeoutMs = 2000): Promise<{ private: Transport; public: Transport }> => {
    const { undiciTransport } = await import("../../src/cli/internal/undici-transport.js");
    const { private: inner, public: outer } = await parts();
    return { private: undiciTransport({ baseUrl: api.baseUrl, timeoutMs }, undefined, inner), public: undiciTransport({ baseUrl: api.baseUrl, timeoutMs }, undefined, outer) };
  };
  const wire = (path: string, method: WireRequest["method"] = "GET", body?: string): WireRequest => ({
    method,
    url: `${api.baseUrl}${path}`,
    headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body,
  });
  /** What a command sees of an attempt: the answer without its Date, or the failure's class, code and message. */
  const seen = (attempt: Attempt) => {
    if (attempt.kind === "failure") return { kind: attempt.kind, transient: attempt.transient, error: attempt.error.constructor.name, message: attempt.error.message };
    const { date: _date, ...headers } = attempt.headers;
    return { kind: attempt.kind, status: attempt.status, headers, text: attempt.text };
  };
  const both = async (request: WireRequest, timeoutMs?: number) => {
    const { private: inner, public: outer } = await transports(timeoutMs);
    try {
      return { private: seen(await inner.send(request)), public: seen(await outer.send(request)) };
    } finally {
      await Promise.all([inner.close(), outer.close()]);
    }
  };

  it.each([
    ["a GET answered with JSON", "/pets/1", undefined],
    ["a POST with a JSON body", "/pets", JSON.stringify({ name: "Rex", categoryId: 1 })],
    ["an API error", "/pets/missing", undefined],
    ["an HTML error page", "/html", undefined],
    ["an answer past the size cap", "/large", undefined],
  ])("%s", async (_what, path, body) => {
    const request = wire(path, body === undefined ? "GET" : "POST", body);
    // 33 MB on a busy machine may take a while: the cap, not the time limit, must be what stops it.
    const answers = await both(request, path === "/large" ? 30_000 : undefined);
    expect(answers.public).toEqual(answers.private);
    expect(answers.private.kind).toBe(request.url.endsWith("/large") ? "failure" : "answer");
  });

  it("a timeout", async () => {
    const answers = await both(wire("/hang"), 200);
    expect(answers.public).toEqual(answers.private);
    expect(answers.private).toMatchObject({ kind: "failure", error: "NetworkError" });
  });

  it("a refused connection", async () => {
    const url = `${await unusedBaseUrl()}/pets`;
    const answers = await both({ ...wire("/pets"), url });
    expect(answers.public).toEqual(answers.private);
    expect(answers.private).toMatchObject({ kind: "failure", transient: true, error: "NetworkError" });
  });

  it("a stream, read as it arrives", async () => {
    const { private: inner, public: outer } = await transports();
    const read = async (transport: Transport) => {
      const attempt = await transport.open!(wire("/events"), new AbortController().signal);
      if (attempt.kind !== "stream") return seen(attempt);
      let text = "";
      for await (const chunk of attempt.body) text += Buffer.from(chunk).toString("utf8");
      return { status: attempt.status, type: attempt.headers["content-type"], text };
    };
    try {
      const answers = { private: await read(inner), public: await read(outer) };
      expect(answers.public).toEqual(answers.private);
      expect(answers.private).toEqual({ status: 200, type: "text/event-stream", text: "data: 1\n\n" });
    } finally {
      await Promise.all([inner.close(), outer.close()]);
    }
  });
});
