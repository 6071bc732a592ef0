// The API as the verb tests see it: scripted answers handed to the real client (retries, errors,
// hints all run) without a socket. Every answer is first checked against the OpenAPI document
// the server serves (test/helpers/conformance.ts), so a script can never answer what the real
// server cannot: a test that needs an impossible answer fails, whatever it asserts.
import { checkResponse } from "../../helpers/conformance.js";
import type { Attempt, Transport, WireRequest } from "../../../src/cli/http.js";

export interface ScriptedAnswer {
  status: number;
  /** Added to the rate-limit headers every answer of the real server carries. */
  headers?: Record<string, string>;
  /** Sent as JSON; none for undefined. */
  body?: unknown;
}

export interface SeenRequest {
  method: string;
  /** Path and query, as the server sees them: `/v1/pets?limit=1`. */
  path: string;
  headers: Record<string, string>;
  /** The JSON body, parsed; undefined without one. */
  body: unknown;
}

export interface InMemoryApi {
  transport: Transport;
  requests: SeenRequest[];
}

export type Script = ScriptedAnswer[] | ((request: SeenRequest) => ScriptedAnswer);

/** Answers the n-th request with `script[n]`, repeating the last answer when the script runs out. */
export function inMemoryApi(script: Script): InMemoryApi {
  const requests: SeenRequest[] = [];
  const transport: Transport = {
    async send(wire: WireRequest): Promise<Attempt> {
      const url = new URL(wire.url);
      const seen = { method: wire.method, path: `${url.pathname}${url.search}`, headers: wire.headers, body: parse(wire.body) };
      requests.push(seen);
      const answer = typeof script === "function" ? script(seen) : script[Math.min(requests.length, script.length) - 1];
      if (!answer) throw new Error(`the script has no answer for ${wire.method} ${seen.path}`);
      const response = toResponse(withEtag(answer, wire.method, url.pathname));
      await checkResponse(wire.method, wire.url, response.clone());
      const headers = Object.fromEntries([...response.headers].map(([name, value]) => [name, value]));
      return { kind: "answer", status: response.status, headers, text: await response.text() };
    },
    close: async () => {},
  };
  return { transport, requests };
}

/** The Error body the server sends; a 401 also names the scheme, as the server's does. */
export function apiError(status: number, code: string, message: string, headers: Record<string, string> = {}): ScriptedAnswer {
  const auth: Record<string, string> = status === 401 ? { "www-authenticate": 'Bearer realm="petstore"' } : {};
  return { status, headers: { ...auth, ...headers }, body: { code, message, status } };
}

/** What GET /pets/{id} carries on every answer: it is deprecated. */
export const GET_PET_DEPRECATION = {
  deprecation: "@1767225600",
  sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
  link: '<http://127.0.0.1/v1/pets>; rel="successor-version"',
};

/** Pet answers and pages carry an ETag on the real server (issue 13): added when a script leaves it out. */
function withEtag(answer: ScriptedAnswer, method: string, path: string): ScriptedAnswer {
  if (answer.headers?.etag !== undefined || ![200, 201, 304].includes(answer.status) || method === "DELETE") return answer;
  if (!/\/pets(\/\d+)?$/.test(path)) return answer;
  const id = (answer.body as { id?: unknown } | undefined)?.id;
  const etag = path.endsWith("/pets") && method === "GET" ? '"page-scripted"' : `"pet-${String(id ?? 0)}-1"`;
  return { ...answer, headers: { ...answer.headers, etag } };
}

function toResponse(answer: ScriptedAnswer): Response {
  const headers = new Headers({ ...RATE_LIMIT_HEADERS, ...answer.headers });
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}

// A key with most of its minute left: the headers the guard puts on every answer.
const RATE_LIMIT_HEADERS = {
  "x-ratelimit-limit": "60",
  "x-ratelimit-remaining": "59",
  "x-ratelimit-reset": "1893456000",
  "ratelimit-policy": '"minute";q=60;w=60, "day";q=1000;w=86400',
  ratelimit: '"minute";r=59;t=60, "day";r=999;t=86400',
};

function parse(body: string | undefined): unknown {
  return body === undefined ? undefined : JSON.parse(body);
}
