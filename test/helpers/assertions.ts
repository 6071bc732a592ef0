import { expect } from "vitest";

/** The Error body exactly: {code, message, status}, JSON, status repeating the HTTP status. */
export async function expectError(response: Response, status: number, code: string): Promise<string> {
  const text = await response.text();
  expect({ status: response.status, text }).toMatchObject({ status });
  expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["code", "message", "status"]);
  expect(body).toMatchObject({ code, status });
  expect(typeof body.message).toBe("string");
  expect(text).not.toMatch(/\n\s+at /);
  return body.message as string;
}

export function expectRateLimitHeaders(response: Response): void {
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    expect(response.headers.get(name), name).toMatch(/^\d+$/);
  }
  expect(response.headers.get("ratelimit-policy")).toMatch(/^"minute";q=\d+;w=60, "day";q=\d+;w=86400$/);
  expect(response.headers.get("ratelimit")).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
}

/** The parsed JSON body, loosely typed: tests assert its shape with expect. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const json = (response: Response): Promise<any> => response.json();
