// Property tests (fast-check) of everything the client parses from outside: the config file, the
// JSON given to --json fields and --jq, Link and Retry-After / RateLimit headers, CSV, NDJSON and
// JSON-array imports, and the event stream. For any input: a value of the promised shape, or one
// of our own errors with a clear message; never a TypeError, a RangeError or a hang.
// Runs are bounded and seeded (FUZZ_SEED, else 21): a failure prints its seed and counterexample.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileConfigStore, profileOf } from "../../src/cli/config-file.js";
import { AnswerError, UsageError } from "../../src/cli/errors.js";
import { readRecords } from "../../src/cli/internal/import/read-records.js";
import { validateRecords } from "../../src/cli/internal/import/validate-records.js";
import { linkWithRel } from "../../src/cli/internal/link-header.js";
import { quotaWindows } from "../../src/cli/internal/rate-limit-windows.js";
import { parseRetryAfter } from "../../src/cli/internal/retry-policy.js";
import { MAX_EVENT_CHARS, SseParser, type SseMessage } from "../../src/cli/internal/sse-parser.js";
import { applyShaping } from "../../src/cli/output/json-shaping.js";
import { renderJson } from "../../src/cli/output/json.js";

const SEED = Number(process.env.FUZZ_SEED ?? 21);
const runs = (numRuns: number) => ({ numRuns, seed: SEED });
const NOW = Date.UTC(2026, 10, 24, 1, 0, 0);

/** Strings with the characters parsers trip on: quotes, separators, line ends, controls, non-ASCII. */
const tricky = fc.string({
  unit: fc.oneof(fc.constantFrom('"', "'", ",", ";", "=", "<", ">", "\\", "\r", "\n", "\t", " ", "\u0000", "{", "}", "[", "]", ":", "é", "😀"), fc.string({ minLength: 1, maxLength: 1, unit: "binary" })),
  maxLength: 60,
});
const anyText = fc.oneof(tricky, fc.string({ maxLength: 200 }), fc.json(), fc.jsonValue().map((value) => JSON.stringify(value)));

/** Our typed errors carry one readable line; anything else (TypeError, RangeError) is a crash. */
function expectClearError(error: unknown, type: new (...args: never[]) => Error, message: RegExp): void {
  expect(error).toBeInstanceOf(type);
  expect((error as Error).constructor).not.toBe(TypeError);
  expect((error as Error).message).toMatch(message);
}

describe("the config file", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "petstore-fuzz-config-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const profile = fc.dictionary(fc.constantFrom("baseUrl", "apiKey", "deprecationNotices", "apikey", "__proto__", "constructor"), fc.jsonValue(), { maxKeys: 4 });
  const configLike = fc
    .record({ top: profile, profiles: fc.oneof(fc.dictionary(tricky, fc.oneof(profile, fc.jsonValue()), { maxKeys: 3 }), fc.jsonValue()) }, { requiredKeys: ["top"] })
    .map(({ top, profiles }) => JSON.stringify(profiles === undefined ? top : { ...top, profiles }));

  it("reads any file as a config object or says the file is malformed; resolving a profile never crashes", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyText, configLike), fc.option(tricky, { nil: undefined }), async (text, envName) => {
        const path = join(dir, `config-${n++}.json`);
        await writeFile(path, text);
        const warnings: string[] = [];
        try {
          const data = await fileConfigStore(path, (message) => warnings.push(message)).read();
          expect(typeof data).toBe("object");
          const chosen = profileOf(data, envName);
          if (chosen !== undefined) for (const value of [chosen.baseUrl, chosen.apiKey]) expect(["string", "undefined"]).toContain(typeof value);
          for (const warning of warnings) expect(warning).toMatch(/^the config file .+ has an unknown field/);
        } catch (error) {
          expectClearError(error, Error, /^the config file \S+ (is not valid JSON|is malformed: )/);
        }
      }),
      runs(300),
    );
  });
});

describe("the JSON given to --json fields and --jq", () => {
  const fields = fc.subarray(["id", "name", "categoryId", "status", "__proto__", "constructor"], { minLength: 1 });

  it("--json fields: any JSON a server answers is picked from and printed as JSON again", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fields, async (value, picked) => {
        const out = await applyShaping(renderJson(value), { fields: picked });
        const shaped = JSON.parse(out) as unknown;
        const records = Array.isArray(shaped) ? shaped : [shaped];
        for (const record of records) {
          if (record === null || typeof record !== "object" || Array.isArray(record)) continue;
          for (const key of Object.keys(record)) expect(picked).toContain(key);
        }
      }),
      runs(400),
    );
  });

  it("--jq: any JSON value goes through jq intact (`.` prints it back), or fails with a --jq error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(".", ".[]?", "length", ".. | numbers?", "tostring"), async (value, jq) => {
        try {
          const out = await applyShaping(renderJson(value), { jq });
          expect(typeof out).toBe("string");
          if (jq === "." && typeof value !== "string") expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(value)));
        } catch (error) {
          expectClearError(error, Error, /^--jq: \S/);
        }
      }),
      runs(200),
    );
  });
});

describe("Link headers", () => {
  const base = "http://127.0.0.1:3000/v1/pets?limit=100";
  const target = fc.oneof(fc.webUrl(), fc.webPath(), tricky, fc.constantFrom("http://[", "//", "http://a:99999/", "\u0000", "?cursor=a b"));
  const param = fc.oneof(fc.constant('rel="next"'), fc.constant("rel=next"), fc.constant('rel="prev next"'), tricky.map((t) => `rel="${t}"`), tricky);
  const header = fc.oneof(
    tricky,
    fc.array(fc.tuple(target, fc.array(param, { maxLength: 3 })), { maxLength: 4 }).map((links) => links.map(([t, ps]) => [`<${t}>`, ...ps].join("; ")).join(", ")),
  );

  it("gives an absolute URL, nothing, or says the link is not a URL", () => {
    fc.assert(
      fc.property(header, (value) => {
        try {
          const next = linkWithRel(value, "next", base);
          if (next !== undefined) expect(() => new URL(next)).not.toThrow();
        } catch (error) {
          expectClearError(error, AnswerError, /^the server's Link header points to something that is not a URL: /);
        }
      }),
      runs(500),
    );
  });

  it("finds the next link whatever other links and parameters surround it", () => {
    fc.assert(
      fc.property(fc.webPath(), fc.array(fc.constantFrom('<a>; rel="prev"', '<b>; title="x, y; z"', "<c>; rel=last"), { maxLength: 3 }), (path, others) => {
        const header = [...others, `</v1/pets?cursor=${encodeURIComponent(path)}>; rel="next"`].join(", ");
        expect(linkWithRel(header, "next", base)).toBe(new URL(`http://127.0.0.1:3000/v1/pets?cursor=${encodeURIComponent(path)}`).href);
      }),
      runs(300),
    );
  });
});

describe("Retry-After and RateLimit headers", () => {
  const retryAfter = fc.oneof(
    tricky,
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 400n }).map(String),
    fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()),
    fc.constantFrom("-5", "0", "1.5", "  12  ", "Sun, 06 Nov 1994 08:49:37 GMT", "soon", "Tue", "9".repeat(400)),
  );

  it("Retry-After: a finite wait of 0 or more milliseconds, or none (absent or garbled)", () => {
    fc.assert(
      fc.property(fc.option(retryAfter, { nil: undefined }), (value) => {
        const ms = parseRetryAfter(value, NOW);
        if (ms !== undefined) {
          expect(Number.isFinite(ms)).toBe(true);
          expect(ms).toBeGreaterThanOrEqual(0);
        }
      }),
      runs(500),
    );
  });

  it("RateLimit, RateLimit-Policy / X-RateLimit-*: windows of finite numbers, or none", () => {
    const number = fc.oneof(fc.nat().map(String), fc.constantFrom("-1", "1e3", "9".repeat(400), "", "x"));
    const entry = fc.tuple(tricky, number, number).map(([name, r, t]) => `"${name}";r=${r};t=${t}`);
    const policy = fc.tuple(tricky, number, number).map(([name, q, w]) => `"${name}";q=${q};w=${w}`);
    const list = (member: fc.Arbitrary<string>) => fc.oneof(tricky, fc.array(member, { maxLength: 3 }).map((entries) => entries.join(", ")));
    const headers = fc.record(
      { ratelimit: list(entry), "ratelimit-policy": list(policy), "x-ratelimit-limit": number, "x-ratelimit-remaining": number, "x-ratelimit-reset": number },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(headers, (value) => {
        for (const window of quotaWindows(value, NOW)) {
          expect(Number.isFinite(window.remaining)).toBe(true);
          expect(Number.isFinite(window.resetAt)).toBe(true);
          expect(window.remaining).toBeGreaterThanOrEqual(0);
          if (window.limit !== undefined) expect(Number.isFinite(window.limit)).toBe(true);
        }
      }),
      runs(500),
    );
  });
});

describe("import files", () => {
  const csvField = fc.oneof(tricky, fc.nat().map(String), fc.constantFrom("available", "sold", '"quoted, with comma"', '"a ""b"""'));
  const csv = fc
    .tuple(
      fc.oneof(fc.constant("name,categoryId,status"), fc.constant("categoryId,name"), fc.constant("name"), tricky),
      fc.array(fc.array(csvField, { maxLength: 4 }), { maxLength: 8 }),
      fc.constantFrom("\n", "\r\n"),
    )
    .map(([header, rows, eol]) => [header, ...rows.map((row) => row.join(","))].join(eol));
  const ndjson = fc
    .array(fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), tricky, fc.record({ name: tricky, categoryId: fc.integer(), status: tricky }).map((v) => JSON.stringify(v))), { maxLength: 8 })
    .map((lines) => lines.join("\n"));

  it.each([
    ["csv", csv],
    ["ndjson", ndjson],
    ["json", fc.oneof(anyText, fc.array(fc.jsonValue(), { maxLength: 5 }).map((v) => JSON.stringify(v, null, 2)))],
  ] as const)("%s: records with their lines, each valid or invalid with a reason; or a usage error for the whole file", (format, arbitrary) => {
    fc.assert(
      fc.property(fc.oneof(arbitrary as fc.Arbitrary<string>, anyText), (text) => {
        try {
          const records = readRecords(text, format);
          const lineCount = text.split("\n").length;
          for (const record of records) {
            expect(record.line).toBeGreaterThanOrEqual(1);
            expect(record.line).toBeLessThanOrEqual(lineCount);
          }
          const { valid, invalid } = validateRecords(records);
          expect(valid.length + invalid.length).toBe(records.length);
          for (const bad of invalid) expect(bad.error).toMatch(/\S/);
          for (const good of valid) {
            expect(typeof good.pet.name).toBe("string");
            expect(Number.isSafeInteger(good.pet.categoryId)).toBe(true);
          }
        } catch (error) {
          expectClearError(error, UsageError, /^the (file|CSV header) /);
        }
      }),
      runs(400),
    );
  });
});

describe("the event stream", () => {
  const frame = fc
    .array(fc.oneof(tricky.map((t) => `data: ${t}`), tricky.map((t) => `event: ${t}`), tricky.map((t) => `id: ${t}`), tricky.map((t) => `:${t}`), tricky), { maxLength: 4 })
    .chain((lines) => fc.constantFrom("\n", "\r\n", "\r").map((eol) => `${lines.map((line) => line.replace(/[\r\n]/g, "")).join(eol)}${eol}${eol}`));
  const stream = fc.array(frame, { maxLength: 5 }).map((frames) => frames.join(""));

  it("never throws, and the events do not depend on how the bytes were cut into chunks", () => {
    fc.assert(
      fc.property(fc.oneof(stream, anyText), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const whole = new SseParser().push(text);
        const parser = new SseParser();
        const chunked: SseMessage[] = [];
        let at = 0;
        for (const cut of [...cuts.map((c) => c % (text.length + 1)).sort((a, b) => a - b), text.length]) {
          chunked.push(...parser.push(text.slice(at, Math.max(at, cut))));
          at = Math.max(at, cut);
        }
        expect(chunked).toEqual(whole);
        for (const message of whole) {
          expect(typeof message.event).toBe("string");
          expect(typeof message.data).toBe("string");
        }
      }),
      runs(500),
    );
  });

  it("a line or an event past 1 MiB is dropped with a clear error, and the parser goes on", () => {
    for (const oversized of ["x".repeat(MAX_EVENT_CHARS + 1), `data: ${"x".repeat(1023)}\n`.repeat(1025)]) {
      const parser = new SseParser();
      let error: unknown;
      try {
        parser.push(oversized);
      } catch (thrown) {
        error = thrown;
      }
      expectClearError(error, AnswerError, /^the event stream sent an event of more than 1048576 characters; it was dropped$/);
      expect(parser.push("\ndata: next\n\n")).toEqual([{ event: "message", id: undefined, data: "next" }]);
    }
  });
});
