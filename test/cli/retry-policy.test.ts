import { describe, expect, it } from "vitest";
import { backoffDelay, isRepeatable, parseRetryAfter, retryDelay } from "../../src/cli/internal/retry-policy.js";

const policy = (random = 0.5, retries = 3, waitedMs = 0) => ({ retries, maxWaitMs: 60_000, waitedMs, random: () => random });

describe("retryDelay", () => {
  const keyed = { "idempotency-key": "5b0c2f0e-2d4e-4a37-9c1b-0f6f8c1d2e3a" };
  it.each([
    { method: "GET", outcome: { status: 429 }, retried: true },
    { method: "POST", outcome: { status: 429 }, retried: true },
    { method: "DELETE", outcome: { status: 429 }, retried: true },
    { method: "GET", outcome: { status: 502 }, retried: true },
    { method: "GET", outcome: { status: 503 }, retried: true },
    { method: "GET", outcome: { status: 504 }, retried: true },
    { method: "GET", outcome: { transient: true }, retried: true },
    { method: "GET", outcome: { transient: false }, retried: false },
    { method: "GET", outcome: { status: 500 }, retried: false },
    { method: "GET", outcome: { status: 404 }, retried: false },
    { method: "GET", outcome: { status: 409 }, retried: false },
    // A POST with an Idempotency-Key is answered once by the server and replayed after that.
    { method: "POST", headers: keyed, outcome: { status: 503 }, retried: true },
    { method: "POST", headers: keyed, outcome: { transient: true }, retried: true },
    { method: "POST", headers: keyed, outcome: { status: 409 }, retried: true },
    { method: "POST", headers: keyed, outcome: { status: 500 }, retried: false },
    { method: "POST", headers: keyed, outcome: { status: 422 }, retried: false },
    // Without one, a POST whose answer was lost may have created: never sent again.
    { method: "POST", outcome: { status: 503 }, retried: false },
    { method: "POST", outcome: { transient: true }, retried: false },
    { method: "POST", outcome: { status: 409 }, retried: false },
    { method: "PATCH", outcome: { status: 502 }, retried: true },
    { method: "PATCH", headers: { "if-match": '"pet-1-1"' }, outcome: { transient: true }, retried: true },
    { method: "PATCH", outcome: { status: 412 }, retried: false },
    { method: "DELETE", outcome: { status: 502 }, retried: true },
    { method: "DELETE", outcome: { transient: true }, retried: true },
    { method: "DELETE", outcome: { status: 404 }, retried: false },
  ])("$method $headers after $outcome: retried=$retried", ({ method, headers, outcome, retried }) => {
    expect(retryDelay({ method, headers }, outcome, 0, policy()) !== undefined).toBe(retried);
  });

  it("calls a request repeatable when sending it twice cannot do the work twice", () => {
    expect(["GET", "PATCH", "DELETE"].map((method) => isRepeatable({ method }))).toEqual([true, true, true]);
    expect(isRepeatable({ method: "POST", headers: keyed })).toBe(true);
    expect(isRepeatable({ method: "POST", headers: {} })).toBe(false);
  });

  it("waits exactly what Retry-After says, never less", () => {
    expect(retryDelay({ method: "GET" }, { status: 429, retryAfterMs: 7000 }, 0, policy(0))).toBe(7000);
    expect(retryDelay({ method: "POST" }, { status: 429, retryAfterMs: 1000 }, 2, policy(0.99))).toBe(1000);
  });

  it("gives up rather than wait past --max-wait in all", () => {
    expect(retryDelay({ method: "GET" }, { status: 429, retryAfterMs: 60_000 }, 0, policy())).toBe(60_000);
    expect(retryDelay({ method: "GET" }, { status: 429, retryAfterMs: 61_000 }, 0, policy())).toBeUndefined();
    expect(retryDelay({ method: "GET" }, { status: 429, retryAfterMs: 30_000 }, 1, policy(0.5, 3, 40_000))).toBeUndefined();
  });

  it("cuts backoff to what is left of --max-wait, and stops when nothing is", () => {
    expect(retryDelay({ method: "GET" }, { status: 503 }, 5, policy(0.99, 9, 59_000))).toBe(1000);
    expect(retryDelay({ method: "GET" }, { status: 503 }, 1, policy(0.5, 9, 60_000))).toBeUndefined();
  });

  it("stops after --retries retries", () => {
    expect(retryDelay({ method: "GET" }, { status: 429 }, 2, policy(0.5, 3))).toBeDefined();
    expect(retryDelay({ method: "GET" }, { status: 429 }, 3, policy(0.5, 3))).toBeUndefined();
    expect(retryDelay({ method: "GET" }, { status: 429 }, 0, policy(0.5, 0))).toBeUndefined();
  });

  it("backs off exponentially with full jitter without Retry-After", () => {
    expect([0, 1, 2, 3].map((attempt) => retryDelay({ method: "GET" }, { status: 503 }, attempt, policy(0.5, 9)))).toEqual([125, 250, 500, 1000]);
  });
});

describe("backoffDelay", () => {
  it("is uniform between 0 and min(8 s, 250 ms × 2^attempt)", () => {
    expect(backoffDelay(0, () => 0)).toBe(0);
    expect(backoffDelay(0, () => 0.999)).toBe(249);
    expect(backoffDelay(4, () => 0.999)).toBe(3996);
    expect(backoffDelay(10, () => 0.5)).toBe(4000);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);
  it.each([
    ["30", 30_000],
    [" 2 ", 2000],
    ["0", 0],
    ["Tue, 01 Jan 2030 12:00:45 GMT", 45_000],
    ["Tue, 01 Jan 2030 11:00:00 GMT", 0],
    ["soon", undefined],
    ["-5", undefined],
    [undefined, undefined],
  ])("%s → %s ms", (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });
});
