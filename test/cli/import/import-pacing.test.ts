// `pets import` against the real app in process, on a test clock: the server's own rate limiter
// and the client's pacer see the same time, so windows turn and days end without a real wait.
// It paces itself to zero 429s, stops rather than wait past --max-wait (exit 5, naming the window
// and its reset), resumes without sending what it knows it created, and stops at once (exit 6)
// when the server dies under it.
import { describe, expect, it } from "vitest";
import { withClient } from "../../../src/cli/context.js";
import { OutputClosedError } from "../../../src/cli/errors.js";
import { readRecords } from "../../../src/cli/internal/import/read-records.js";
import { sendRecords } from "../../../src/cli/internal/import/send-records.js";
import { validateRecords } from "../../../src/cli/internal/import/validate-records.js";
import { main } from "../../../src/cli/main.js";
import type { Settings } from "../../../src/cli/settings.js";
import { memoryApp } from "../../helpers/memory-app.js";
import { networkFailure } from "../../../src/cli/internal/hints.js";
import { appApi, type AppApi } from "../helpers/app-api.js";
import { createTestContext, memoryStateStore } from "../helpers/test-context.js";

const ADMIN_KEY = "ps_test_admin_key_0123456789abcdefghijkl";
const BASE_URL = "http://127.0.0.1:3999/v1";

function records(count: number): string {
  return Array.from({ length: count }, (_, i) => `{"name":"Paced${i}","categoryId":1}\n`).join("");
}

/** The app and a CLI sharing one clock that starts at `startMs` and moves only when the CLI waits. */
async function setup(startMs: number) {
  let now = startMs;
  const clock = { now: () => now, advance: async (ms: number) => void (now += ms), set: (ms: number) => void (now = ms) };
  const { app } = await memoryApp({ adminKey: ADMIN_KEY, now: clock.now, limitsOf: (key) => key.limits ?? { perMinute: 1000, perDay: 1000 } });
  const api = appApi(app, { baseUrl: BASE_URL, timeoutMs: 10_000 });
  const state = memoryStateStore();
  const run = async (argv: string[], key: string, stdin?: string) => {
    const test = createTestContext({ now: clock.now, sleep: clock.advance, timeZone: "UTC", api, state, stdin, env: { PETSTORE_BASE_URL: BASE_URL, PETSTORE_API_KEY: key } });
    const code = await main(argv, test.ctx);
    return { code, stdout: test.stdout(), stderr: test.stderr(), sleeps: test.sleeps };
  };
  const createKey = async (perMinute: number, perDay: number) => {
    const created = await run(["keys", "create", "--plan", "enterprise", "--per-minute", String(perMinute), "--per-day", String(perDay), "--json"], ADMIN_KEY);
    expect(created.code).toBe(0);
    return (JSON.parse(created.stdout) as { key: string }).key;
  };
  return { clock, api, state, run, createKey };
}

/** The server's answers to creates, by status. */
function postsByStatus(api: AppApi, from = 0): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of api.answers.slice(from)) {
    if (answer.method === "POST" && answer.path === "/v1/pets") counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  }
  return counts;
}

describe("pets import on a test clock", () => {
  it("imports 75 records with a key of 30 a minute, waiting for the resets, with zero 429s", async () => {
    // 40 s before the minute turns: the first window is short, the second a whole minute.
    const { api, run, createKey } = await setup(Date.UTC(2030, 0, 1, 12, 0, 20));
    const key = await createKey(30, 1000);
    const result = await run(["pets", "import", "-", "--json"], key, records(75));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 75, created: 75, replayed: 0, failed: [] });
    expect(result.stderr.match(/^Waiting \d+s: the key's minute quota is spent until its window resets$/gm)).toEqual([
      "Waiting 41s: the key's minute quota is spent until its window resets",
      // The first wait ends a second past the turn (the margin): the next window is 59 s away.
      "Waiting 60s: the key's minute quota is spent until its window resets",
    ]);
    expect(postsByStatus(api)).toEqual({ "201": 75 });
  });

  it("stops at once when the day's quota is spent for longer than --max-wait: exit 5, the window and its reset", async () => {
    // An hour before the day ends (UTC), with a key of 40 a day.
    const { run, createKey } = await setup(Date.UTC(2030, 0, 1, 23, 0, 0));
    const key = await createKey(1000, 40);
    const result = await run(["pets", "import", "-"], key, records(75));
    expect(result.code).toBe(5);
    expect(result.sleeps.every((ms) => ms <= 60_000)).toBe(true);
    expect(result.stderr).toContain(
      "Stopped after 40 of 75 records: 40 created, 0 replayed, 0 skipped, 0 failed, 35 not sent\n" +
        "Error: the key's day quota is spent (0 of 40 left); it resets at 00:00 UTC (in 60 min), past --max-wait (60 s)\n" +
        "The import stopped with 35 records not sent. Run the same command again after the reset to resume: the 40 records done are not sent again. Or raise --max-wait to wait here.\n",
    );
    expect(result.stderr).not.toContain("Waiting");
  });

  it("with --json, reports what was done and what was not, and the error as JSON with retryAfter", async () => {
    const { run, createKey } = await setup(Date.UTC(2030, 0, 1, 23, 0, 0));
    const key = await createKey(1000, 10);
    const result = await run(["pets", "import", "-", "--json"], key, records(20));
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout)).toEqual({ total: 20, created: 10, replayed: 0, earlier: 0, pending: 10, skipped: [], failed: [] });
    const error = JSON.parse(result.stderr.trim().split("\n").at(-1) ?? "") as Record<string, unknown>;
    expect(error).toEqual({ code: "rate_limited", message: expect.stringContaining("day quota is spent"), retryAfter: 3600 });
  });

  it("resumed after the reset, sends only the records it had not created: no quota spent on the others", async () => {
    const { api, clock, state, run, createKey } = await setup(Date.UTC(2030, 0, 1, 23, 0, 0));
    const key = await createKey(1000, 40);
    expect((await run(["pets", "import", "-"], key, records(75))).code).toBe(5);
    expect([...state.journals.values()][0]).toHaveLength(40);
    clock.set(Date.UTC(2030, 0, 2, 0, 0, 5));
    const sentBefore = api.answers.length;
    const resumed = await run(["pets", "import", "-", "--json"], key, records(75));
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ total: 75, created: 35, replayed: 0, earlier: 40, pending: 0, failed: [] });
    expect(resumed.stderr).toContain("Imported 75 records: 35 created, 0 replayed, 40 done by an earlier run, 0 skipped, 0 failed\n");
    expect(postsByStatus(api, sentBefore)).toEqual({ "201": 35 });
    // Complete: nothing left to resume, so the journal is gone.
    expect(state.journals.size).toBe(0);
  });

  it("waits for the day's reset when --max-wait allows it", async () => {
    const { api, run, createKey } = await setup(Date.UTC(2030, 0, 1, 23, 0, 0));
    const key = await createKey(1000, 40);
    const result = await run(["pets", "import", "-", "--max-wait", "7200"], key, records(75));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("Waiting 3601s: the key's day quota is spent until its window resets\n");
    expect(postsByStatus(api)).toEqual({ "201": 75 });
  });

  it("stops at once when the server dies: exit 6, unreachable, within one request's retries, and a re-run resumes", async () => {
    const { api, run, createKey } = await setup(Date.UTC(2030, 0, 1, 12, 0, 0));
    const key = await createKey(100_000, 1_000_000);
    const dieAfter = 50;
    const original = api.transport.send.bind(api.transport);
    let died = false;
    api.transport.send = async (wire) => {
      if (!died && api.answers.length >= dieAfter + 1) {
        died = true;
        api.stop();
      }
      return original(wire);
    };
    const result = await run(["pets", "import", "-", "--concurrency", "4"], key, records(600));
    expect(result.code).toBe(6);
    // The requests in flight when it died, each with its retries (3): nothing more.
    expect(api.refused).toBeLessThanOrEqual(4 * (1 + 3));
    expect(result.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(60_000);
    expect(result.stderr).not.toContain("quota");
    expect(result.stderr).toMatch(
      new RegExp(
        `Stopped after \\d+ of 600 records: \\d+ created, 0 replayed, 0 skipped, 0 failed, \\d+ not sent\\n` +
          `Error: connection refused by http://127\\.0\\.0\\.1:3999\\n` +
          `Is a server running at ${BASE_URL.replace(/\./g, "\\.")}\\? .+\\n` +
          `The server is unreachable, so the import stopped with \\d+ records not sent\\. Run the same command again to resume: the \\d+ records done are not sent again\\.\\n$`,
      ),
    );
    const done = Number(/the (\d+) records done/.exec(result.stderr)?.[1]);
    // Those answered before it died (requests already on their way when it did are answered too).
    expect(done).toBeGreaterThanOrEqual(dieAfter);
    expect(done).toBeLessThanOrEqual(dieAfter + 4);
    api.start();
    const sentBefore = api.answers.length;
    const resumed = await run(["pets", "import", "-", "--json", "--concurrency", "16"], key, records(600));
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ created: 600 - done, replayed: 0, earlier: done, pending: 0 });
    expect(postsByStatus(api, sentBefore)).toEqual({ "201": 600 - done });
  });
});

describe("sendRecords", () => {
  it("stops every worker when its own output fails (the progress line's reader gone), sending nothing more", async () => {
    const { app } = await memoryApp({ adminKey: ADMIN_KEY });
    const api = appApi(app, { baseUrl: BASE_URL, timeoutMs: 10_000 });
    const test = createTestContext({ api, env: { PETSTORE_BASE_URL: BASE_URL, PETSTORE_API_KEY: ADMIN_KEY } });
    const settings = { baseUrl: BASE_URL, apiKey: ADMIN_KEY, timeoutMs: 10_000, retries: 3, maxWaitMs: 60_000, verbose: false, color: "never" } as Settings;
    const loaded = validateRecords(readRecords(records(200), "ndjson"));
    const journal = memoryStateStore().importJournal("test");
    const result = await withClient(test.ctx, settings, (client) =>
      sendRecords(client, loaded.valid, {
        concurrency: 8,
        fileHash: "0".repeat(64),
        journal,
        maxWaitMs: 60_000,
        now: Date.now,
        sleep: async () => {},
        onWait: () => {},
        onSettled: (done) => {
          if (done >= 20) throw new OutputClosedError();
        },
      }),
    );
    expect(result.stopped).toEqual({ kind: "error", error: expect.any(OutputClosedError) });
    const sent = api.requests.length;
    // The workers in flight finish their request; none starts another.
    expect(sent).toBeLessThanOrEqual(20 + 8);
    expect(result.created + result.pending).toBe(200);
    expect((await journal.read()).size).toBe(result.created);
  });
});


describe("pets import over connections the server drops", () => {
  /** Answers every attempt whose Idempotency-Key `drops` says with a connection reset, as a proxy or a chaos server does. */
  function dropping(api: AppApi, drops: (key: string) => boolean): void {
    const send = api.transport.send.bind(api.transport);
    api.transport.send = async (wire) => {
      const key = wire.headers["idempotency-key"];
      if (key === undefined || !drops(key)) return send(wire);
      const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
      return { kind: "failure", ...networkFailure(reset, false, wire.url, { baseUrl: BASE_URL, timeoutMs: 10_000 }) };
    };
  }

  it("sends a record whose connection was dropped more often than --retries again later, and ends with every record, exit 0", async () => {
    const { api, run, createKey } = await setup(Date.UTC(2030, 0, 1, 12, 0, 0));
    const key = await createKey(1000, 1000);
    // The fourth record's first 6 attempts: more than one request's 3 retries.
    let dropped = 0;
    dropping(api, (idempotencyKey) => idempotencyKey.endsWith("-3") && ++dropped <= 6);
    const result = await run(["pets", "import", "-", "--json"], key, records(20));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 20, created: 20, replayed: 0, failed: [] });
    expect(dropped).toBeGreaterThan(6);
    expect(postsByStatus(api)).toEqual({ "201": 20 });
  });

  it("stops when the server drops every connection: exit 6, the records not sent counted, and a re-run resumes", async () => {
    const { api, run, createKey } = await setup(Date.UTC(2030, 0, 1, 12, 0, 0));
    const key = await createKey(1000, 1000);
    // After 10 creates, every connection is dropped: a server that is failing, not a bad moment.
    let posts = 0;
    let dropAll = true;
    dropping(api, () => dropAll && ++posts > 10);
    const result = await run(["pets", "import", "-"], key, records(30));
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^Stopped after \d+ of 30 records: \d+ created, 0 replayed, 0 skipped, 0 failed, \d+ not sent$/m);
    expect(result.stderr).toContain("Error: request to http://127.0.0.1:3999 failed: read ECONNRESET");
    dropAll = false;
    const again = await run(["pets", "import", "-", "--json"], key, records(30));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ total: 30, failed: [] });
  });
});
