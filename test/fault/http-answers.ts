// What every answer to bad input must look like, whatever produced it (the app, or the
// transport layer before the app): a 4xx with exactly the documented Error body.
import { expect } from "vitest";
import { allowsStatus, ERROR_CODE_DOCS, type ErrorCode } from "../../src/contract/errors.js";
import type { ErrorBody } from "../../src/contract/values.js";

export interface Expected {
  status?: number;
  code?: string;
}

/**
 * A 4xx with Content-Type application/json and the body {code, message, status}: status equal
 * to the HTTP status, code one of the documented codes for that status, no stack trace.
 */
export function expectErrorAnswer(status: number, contentType: string | null | undefined, text: string, expected: Expected = {}): ErrorBody {
  const context = `${status} ${JSON.stringify(text.slice(0, 300))}`;
  expect(status, context).toBeGreaterThanOrEqual(400);
  expect(status, context).toBeLessThan(500);
  expect(contentType, context).toMatch(/^application\/json\b/);
  const body = JSON.parse(text) as ErrorBody;
  expect(Object.keys(body).sort(), context).toEqual(["code", "message", "status"]);
  expect(body.status, context).toBe(status);
  expect(body.code in ERROR_CODE_DOCS && allowsStatus(body.code as ErrorCode, status), `${context}: code ${body.code} is documented for status ${status}`).toBe(true);
  expect(typeof body.message === "string" && body.message.length > 0, context).toBe(true);
  expect(text, context).not.toMatch(/\n\s+at /);
  if (expected.status !== undefined) expect(status, context).toBe(expected.status);
  if (expected.code !== undefined) expect(body.code, context).toBe(expected.code);
  return body;
}

/** fast-check's seed for this run: FAULT_SEED replays a failure; otherwise a fresh one, printed. */
export function runSeed(): number {
  const fromEnv = process.env.FAULT_SEED;
  const seed = fromEnv === undefined ? Date.now() ^ (Math.random() * 0x7fffffff) : Number(fromEnv);
  console.log(`fast-check seed ${seed} (replay with FAULT_SEED=${seed})`);
  return seed;
}
