// The real server (startServer: store, limiter, listhen) in this process, on a port of its own (test-port.ts)
// with a temporary db, and a movable clock so tests cross windows without sleeping. In the
// vitest project "postgres" the db is a fresh PostgreSQL database and the limits live in Redis.
import { startServer, type RunningServer, type ServeOptions } from "../../src/server/serve.js";
import { checkResponse } from "./conformance.js";
import { tempDbPath } from "./serve-process.js";
import { onTestPort } from "./test-port.js";
import { freshDatabase, redisFor, testBackend } from "./test-backend.js";

export const ADMIN_KEY = "ps_inprocess_admin_key_abcdefghijklmnop";

export interface TestClock {
  now: () => number;
  set(ms: number): void;
  advance(ms: number): void;
}

/** A clock that stands still until told to move. */
export function testClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)): TestClock {
  let current = start;
  return {
    now: () => current,
    set: (ms) => (current = ms),
    advance: (ms) => (current += ms),
  };
}

export interface TestServer extends RunningServer {
  /** The lowdb file, or the PostgreSQL URL: pass it as `db` to restart on the same data. */
  dbPath: string;
  adminKey: string;
  stderr(): string;
  stdout(): string;
  /** fetch against the base URL, with the admin key unless `key` says otherwise (null: no header). */
  api(path: string, init?: ApiInit): Promise<Response>;
  /** As api, through the app's fetch in this process (no socket): for the many-request cases. */
  local(path: string, init?: ApiInit): Promise<Response>;
}

export interface ApiInit {
  method?: string;
  key?: string | null;
  json?: unknown;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

export async function startTestServer(overrides: Partial<ServeOptions> = {}): Promise<TestServer> {
  const { db: dbPath, redis } = await testDb(overrides);
  let stderr = "";
  let stdout = "";
  const base: Omit<ServeOptions, "port"> = {
    host: "127.0.0.1",
    db: dbPath,
    redis,
    configFile: undefined,
    quiet: true,
    adminKey: ADMIN_KEY,
    ...overrides,
  };
  const io = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
  };
  const listenOn = (port: number) => startServer({ ...base, port }, io);
  const server = overrides.port === undefined ? await onTestPort(listenOn) : await listenOn(overrides.port);
  const adminKey = base.adminKey ?? "";
  return {
    ...server,
    dbPath,
    adminKey,
    stderr: () => stderr,
    stdout: () => stdout,
    api: (path, init = {}) => callApi(server.baseUrl, adminKey, path, init),
    local: (path, init = {}) => callApi(server.baseUrl, adminKey, path, init, (request) => server.fetch(request)),
  };
}

async function testDb(overrides: Partial<ServeOptions>): Promise<{ db: string; redis?: string }> {
  if (testBackend() === "lowdb") return { db: overrides.db ?? (await tempDbPath()), redis: overrides.redis };
  if (overrides.db === undefined) return freshDatabase();
  if (!overrides.db.startsWith("postgres://")) return { db: overrides.db, redis: overrides.redis };
  return { db: overrides.db, redis: overrides.redis ?? redisFor(overrides.db) };
}

/** fetch, then the response is checked against the OpenAPI document before the test sees it. */
export async function callApi(
  baseUrl: string,
  defaultKey: string,
  path: string,
  init: ApiInit = {},
  send: (request: Request) => Promise<Response> = (request) => fetch(request),
): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  const key = init.key === undefined ? defaultKey : init.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] ??= "application/json";
  }
  const url = path.startsWith("http") ? path : `${baseUrl}${path}`;
  const method = init.method ?? (body === undefined ? "GET" : "POST");
  const response = await send(new Request(url, { method, headers, body }));
  await checkResponse(method, url, response.clone());
  return response;
}

/** Creates a key through the admin API and returns its secret. */
export async function createKey(server: TestServer, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const response = await server.api("/keys", { json: body });
  if (response.status !== 201) throw new Error(`POST /keys: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; key: string };
}
