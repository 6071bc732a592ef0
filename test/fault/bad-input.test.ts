// Thousands of generated requests against the built `petstore serve` over real HTTP: every
// answer is a 4xx with the exact Error body or a correct 2xx, never a 5xx, never a hang, and
// the server keeps serving. A failure prints its seed; FAULT_SEED=<seed> replays it.
import { METHODS } from "node:http";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServeProcess, tempDbPath, type ServeProcess } from "../helpers/serve-process.js";
import { expectErrorAnswer, runSeed } from "./http-answers.js";
import {
  badAuthorization,
  bodyCase,
  bodyVerdict,
  cleanSegment,
  goodAuthorization,
  isValidNewKey,
  isValidNewPet,
  keyBody,
  petBody,
  queryVerdict,
  rawQuery,
  wildSegment,
  type BodyCase,
} from "./http-inputs.js";
import { requestHead, sendRaw, type RawAnswer } from "./http-raw.js";

const seed = runSeed();
const TIMEOUT = { headersTimeout: 5_000, bodyTimeout: 5_000 };
let server: ServeProcess;
let pool: Pool;
let key: string;
let requests = 0;

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function call(method: string, path: string, headers: Record<string, string | undefined> = {}, body?: Uint8Array): Promise<Answer> {
  requests += 1;
  const sent = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const response = await pool.request({ method: method as "GET", path, headers: sent, body, ...TIMEOUT });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers as Record<string, string>, text };
}

const withKey = (extra: Record<string, string | undefined> = {}) => ({ authorization: `Bearer ${key}`, ...extra });

async function raw(bytes: Uint8Array | string, head = false): Promise<RawAnswer | null> {
  requests += 1;
  return sendRaw(server.origin, bytes, { head, timeoutMs: 5_000 });
}

/** The process is alive and a valid request still gets a correct answer. */
async function expectStillServing(): Promise<void> {
  expect(server.child.exitCode, server.stderr()).toBeNull();
  const health = await call("GET", "/healthz");
  expect(health).toMatchObject({ status: 200, text: '{"status":"ok"}' });
  const list = await call("GET", "/v1/pets?limit=1", withKey());
  expect(list.status).toBe(200);
  expect(Array.isArray(JSON.parse(list.text))).toBe(true);
}

const property = <T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>, numRuns: number) =>
  fc.assert(fc.asyncProperty(arbitrary, check), { seed, numRuns, endOnFailure: true });

beforeAll(async () => {
  const dbPath = await tempDbPath();
  // Anonymous callers are limited per IP; raise that so the 401 property is not drowned in 429s.
  const config = join(dirname(dbPath), "limits.json");
  await writeFile(config, JSON.stringify({ anonymous: { perMinute: 100_000_000, perDay: 1_000_000_000 } }));
  server = await startServeProcess({ dbPath, args: ["--config", config, "--quiet"] });
  pool = new Pool(server.origin, { connections: 4, pipelining: 1 });
  const created = await call("POST", "/v1/keys", { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" }, Buffer.from(JSON.stringify({ plan: "enterprise", name: "fuzz", perMinute: 1_000_000_000, perDay: 1_000_000_000_000 })));
  expect(created.status).toBe(201);
  key = (JSON.parse(created.text) as { key: string }).key;
  const first = await call("POST", "/v1/pets", withKey({ "content-type": "application/json" }), Buffer.from('{"name":"first","categoryId":1}'));
  expect(first.status).toBe(201);
});

afterAll(async () => {
  await pool?.close();
  const code = await server?.stop();
  console.log(`bad-input: ${requests} requests`);
  expect(code).toBe(0);
  // Nothing reached the unexpected-error path (500s are logged with "error:" even with --quiet).
  expect(server.stderr()).not.toMatch(/error:/);
});

function expectBodyAnswer(answer: Answer, body: BodyCase, valid: (value: unknown) => boolean, check201: (sent: Record<string, unknown>, got: Record<string, unknown>) => void): void {
  const verdict = bodyVerdict(body, valid);
  if ("value" in verdict) {
    expect(answer.status, answer.text).toBe(201);
    expect(answer.headers["content-type"]).toMatch(/^application\/json\b/);
    check201(verdict.value, JSON.parse(answer.text) as Record<string, unknown>);
  } else {
    expectErrorAnswer(answer.status, answer.headers["content-type"], answer.text, verdict);
  }
}

describe("generated bodies", () => {
  it("POST /v1/pets: 201 with the pet exactly when docs/api.md's rules allow it, else the right 4xx", async () => {
    await property(
      bodyCase(petBody),
      async (body) => {
        const answer = await call("POST", "/v1/pets", withKey({ "content-type": body.contentType }), body.bytes);
        expectBodyAnswer(answer, body, isValidNewPet, (sent, got) => {
          expect(Object.keys(got).sort()).toEqual(["categoryId", "id", "name", "status"]);
          expect(got).toMatchObject({ name: sent.name, categoryId: sent.categoryId, status: sent.status ?? "available" });
          expect(Number.isSafeInteger(got.id) && (got.id as number) > 0).toBe(true);
          expect(answer.headers.location).toBe(`/v1/pets/${got.id}`);
        });
      },
      1500,
    );
    await expectStillServing();
  });

  it("POST /v1/keys: 201 with a new key exactly when docs/api.md's rules allow it, else the right 4xx", async () => {
    await property(
      bodyCase(keyBody),
      async (body) => {
        const answer = await call("POST", "/v1/keys", { authorization: `Bearer ${server.adminKey}`, "content-type": body.contentType }, body.bytes);
        expectBodyAnswer(answer, body, isValidNewKey, (sent, got) => {
          expect(got).toMatchObject({ plan: sent.plan, name: sent.name ?? null });
          expect(got.key).toMatch(/^ps_[0-9A-Za-z]{40}$/);
          if (sent.plan === "enterprise") expect(got.limits).toEqual({ perMinute: sent.perMinute, perDay: sent.perDay });
        });
      },
      300,
    );
    await expectStillServing();
  });
});

describe("generated query strings and paths", () => {
  it("GET /v1/pets?<query>: a page that obeys limit and status, or 400 invalid_parameter naming the parameter", async () => {
    await property(
      rawQuery,
      async (query) => {
        const answer = await call("GET", `/v1/pets?${query}`, withKey());
        const verdict = queryVerdict(query);
        if (verdict.status === "either") {
          if (answer.status !== 200) expectErrorAnswer(answer.status, answer.headers["content-type"], answer.text, { status: 400, code: "invalid_parameter" });
          return;
        }
        const cursorMayFail = verdict.status === 200 && new URL(`http://petstore.test/?${query}`).searchParams.has("cursor") && answer.status === 400;
        if (verdict.status === 400 || cursorMayFail) {
          const error = expectErrorAnswer(answer.status, answer.headers["content-type"], answer.text, { status: 400, code: "invalid_parameter" });
          expect(error.message.startsWith(verdict.status === 400 ? verdict.name : "cursor"), error.message).toBe(true);
          return;
        }
        expect(answer.status, answer.text).toBe(200);
        const pets = JSON.parse(answer.text) as { id: number; status: string }[];
        expect(pets.length).toBeLessThanOrEqual(verdict.limit);
        if (verdict.filter !== undefined) for (const pet of pets) expect(pet.status).toBe(verdict.filter);
        expect(pets.map((pet) => pet.id)).toEqual(pets.map((pet) => pet.id).sort((a, b) => a - b));
      },
      800,
    );
    await expectStillServing();
  });

  it("GET /v1/pets/<segment>: the pet, 404 not_found, or 400 invalid_parameter for a petId that is not a positive integer", async () => {
    await property(
      fc.oneof(cleanSegment.map((segment) => ({ segment, clean: true })), wildSegment.map((segment) => ({ segment, clean: false }))),
      async ({ segment, clean }) => {
        const answer = await call("GET", `/v1/pets/${segment}`, withKey());
        expect(answer.headers.deprecation ?? "", "getPet carries Deprecation on every answer").toMatch(clean ? /^@\d+$/ : /^(@\d+)?$/);
        if (answer.status === 200) {
          const pet = JSON.parse(answer.text) as { id: number };
          if (clean) expect(String(pet.id)).toBe(segment);
          return;
        }
        const isId = /^[1-9]\d*$/.test(segment) && Number.isSafeInteger(Number(segment));
        const expected = !clean ? {} : isId ? { status: 404, code: "not_found" } : { status: 400, code: "invalid_parameter" };
        expectErrorAnswer(answer.status, answer.headers["content-type"], answer.text, expected);
      },
      600,
    );
    await expectStillServing();
  });

  it("any method on /v1/<segments>: a correct answer or a 4xx Error body", async () => {
    const method = fc.constantFrom("GET", "HEAD", "POST", "DELETE", "PUT", "PATCH", "OPTIONS");
    const path = fc.array(fc.oneof(cleanSegment, wildSegment, fc.constantFrom("pets", "keys", "v1", "openapi.json")), { minLength: 0, maxLength: 4 });
    await property(
      fc.tuple(method, path),
      async ([verb, segments]) => {
        const answer = await call(verb, `/v1/${segments.join("/")}`, withKey());
        if (answer.status < 400) {
          expect(answer.status, `${verb} /v1/${segments.join("/")}`).toBeLessThan(300);
          return;
        }
        if (verb === "HEAD") expect(answer.status).toBeLessThan(500);
        else expectErrorAnswer(answer.status, answer.headers["content-type"], answer.text);
        if (answer.status === 405) expect(answer.headers.allow).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
      },
      500,
    );
    await expectStillServing();
  });

  it("DELETE /v1/keys/<segment> with ids that do not exist: 404 not_found (dot segments re-route: 405), no key revoked", async () => {
    await property(
      fc.oneof(cleanSegment.map((segment) => ({ segment, clean: true })), wildSegment.map((segment) => ({ segment, clean: false }))),
      async ({ segment, clean }) => {
        const answer = await call("DELETE", `/v1/keys/${segment}`, { authorization: `Bearer ${server.adminKey}` });
        const error = expectErrorAnswer(answer.status, answer.headers["content-type"], answer.text, clean ? { status: 404, code: "not_found" } : {});
        expect([404, 405], error.message).toContain(answer.status);
      },
      300,
    );
    await expectStillServing();
  });
});

describe("generated Authorization headers", () => {
  it("no key or a bad one: 401 unauthorized with WWW-Authenticate; the forms of a good key: 200", async () => {
    await property(
      fc.oneof(badAuthorization.map((value) => ({ value, good: false })), goodAuthorization(key).map((value) => ({ value, good: true }))),
      async ({ value, good }) => {
        const answer = await call("GET", "/v1/pets?limit=1", { authorization: value });
        if (good) {
          expect(answer.status, answer.text).toBe(200);
          return;
        }
        expectErrorAnswer(answer.status, answer.headers["content-type"], answer.text, { status: 401, code: "unauthorized" });
        expect(answer.headers["www-authenticate"]).toBe('Bearer realm="petstore"');
        expect(answer.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
      },
      800,
    );
    await expectStillServing();
  });
});

const PATHS: Record<string, string[]> = {
  "/v1/pets": ["GET", "HEAD", "POST"],
  "/v1/keys": ["GET", "HEAD", "POST"],
  // PET_PATH: a pet of this test's own (the tests before it may delete any pet, pet 1 included).
  PET_PATH: ["GET", "HEAD", "PATCH", "DELETE"],
  "/v1/openapi.json": ["GET", "HEAD"],
  "/healthz": ["GET", "HEAD"],
  "/nowhere": [],
};

describe("generated requests on a bare socket", () => {
  it("any method token: routed (200, 405 with Allow, 415, 412) if Node knows it, else 400 malformed_request", async () => {
    const token = fc.oneof(
      fc.constantFrom(...METHODS),
      fc.stringMatching(/^[A-Z]{1,12}$/),
      fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/),
      fc.constantFrom("get", "Get", "G ET", "GET\t", ""),
    );
    const created = await call("POST", "/v1/pets", { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" }, Buffer.from('{"name":"Kept","categoryId":1}'));
    const petId = (JSON.parse(created.text) as { id: number }).id;
    const petPath = `/v1/pets/${petId}`;
    await property(
      fc.tuple(token, fc.constantFrom(...Object.keys(PATHS))),
      async ([method, pathKey]) => {
        const path = pathKey === "PET_PATH" ? petPath : pathKey;
        // An If-Match no pet ever has: a DELETE that gets through is 412 and the pet stays for the GETs.
        const lines = [`Authorization: Bearer ${server.adminKey}`, "Content-Length: 0", `If-Match: "pet-${petId}-0"`];
        const head = requestHead(`${method} ${path} HTTP/1.1`, lines);
        const answer = await raw(head, method === "HEAD");
        expect(answer, `${method} ${path}`).not.toBeNull();
        const { status, headers, body } = answer!;
        const allowed = PATHS[pathKey]!;
        if (!METHODS.includes(method) || method === "PRI") {
          expectErrorAnswer(status, headers["content-type"], body, { status: 400, code: "malformed_request" });
        } else if (method === "CONNECT") {
          expectErrorAnswer(status, headers["content-type"], body, { status: 405, code: "method_not_allowed" });
          expect(headers.allow).toBe("");
        } else if (allowed.length === 0) {
          if (method !== "HEAD") expectErrorAnswer(status, headers["content-type"], body, { status: 404, code: "not_found" });
          expect(status).toBe(404);
        } else if (method === "GET" || method === "HEAD") {
          expect(status, body).toBe(200);
        } else if ((method === "POST" || method === "PATCH") && allowed.includes(method)) {
          expectErrorAnswer(status, headers["content-type"], body, { status: 415, code: "unsupported_media_type" });
        } else if (method === "DELETE" && allowed.includes(method)) {
          expectErrorAnswer(status, headers["content-type"], body, { status: 412, code: "precondition_failed" });
        } else {
          expectErrorAnswer(status, headers["content-type"], body, { status: 405, code: "method_not_allowed" });
          expect(headers.allow).toBe(allowed.join(", "));
        }
      },
      400,
    );
    await expectStillServing();
  });

  it("garbage request lines and headers: a 4xx Error body, a correct 2xx, or a close without a byte", async () => {
    const piece = fc.oneof(
      fc.constantFrom("GET", "POST", "DELETE", " ", "/v1/pets", "/v1/pets/1", "/healthz", "HTTP/1.1", "HTTP/1.0", "HTTP/2", "HTTP/1.1\r\n", "\r\n", "\n", "\r", ":", "Host: x\r\n", "Content-Length: 5\r\n", "Content-Length: -1\r\n", "Transfer-Encoding: chunked\r\n", "\x00", "\xff", "\t", "{}", "0\r\n\r\n", "Content-Type: application/json\r\n"),
      fc.constant(`Authorization: Bearer ${key}\r\n`),
      fc.string({ maxLength: 20, unit: "binary-ascii" }),
    );
    await property(
      fc.array(piece, { minLength: 1, maxLength: 16 }),
      async (pieces) => {
        const bytes = Buffer.from(pieces.join(""), "latin1");
        const answer = await raw(bytes);
        if (answer === null) return;
        expect(answer.status, JSON.stringify(bytes.toString("latin1"))).toBeLessThan(500);
        if (answer.status >= 400) expectErrorAnswer(answer.status, answer.headers["content-type"], answer.body);
      },
      500,
    );
    await expectStillServing();
  });

  it("invalid UTF-8 and control bytes in the request target and header values: a 4xx Error body or a correct 2xx", async () => {
    const bad = fc.constantFrom("\xff", "\xc0\x80", "\xed\xa0\x80", "\x80", "\x00", "\x7f", "\x01", "\xe2\x82");
    const where = fc.constantFrom("path", "query", "authorization", "content-type", "header-name");
    await property(
      fc.tuple(bad, where, fc.nat({ max: 60 })),
      async ([bytes, place, at]) => {
        const insert = (text: string) => `${text.slice(0, at % (text.length + 1))}${bytes}${text.slice(at % (text.length + 1))}`;
        const target = place === "path" ? insert("/v1/pets/1") : place === "query" ? `/v1/pets?${insert("status=sold")}` : "/v1/pets";
        const lines = [
          `Authorization: ${place === "authorization" ? insert(`Bearer ${key}`) : `Bearer ${key}`}`,
          `Content-Type: ${place === "content-type" ? insert("application/json") : "application/json"}`,
          ...(place === "header-name" ? [`${insert("X-Note")}: 1`] : []),
          "Content-Length: 0",
        ];
        const answer = await raw(Buffer.from(requestHead(`GET ${target} HTTP/1.1`, lines), "latin1"));
        expect(answer).not.toBeNull();
        expect(answer!.status).toBeLessThan(500);
        if (answer!.status >= 300) expectErrorAnswer(answer!.status, answer!.headers["content-type"], answer!.body);
      },
      300,
    );
    await expectStillServing();
  });

  it("a missing Host on HTTP/1.1 is 400 malformed_request with the Error body", async () => {
    const answer = await raw(`GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expectErrorAnswer(answer!.status, answer!.headers["content-type"], answer!.body, { status: 400, code: "malformed_request" });
    await expectStillServing();
  });

  it("an unknown Expect value is ignored: the request is served", async () => {
    const answer = await raw(requestHead("GET /v1/pets?limit=1 HTTP/1.1", [`Authorization: Bearer ${key}`, "Expect: the-unexpected"]));
    expect(answer?.status).toBe(200);
  });
});
