// The client side of HTTP: retries with backoff and Retry-After, and every failure turned into
// ApiError or NetworkError. The wire itself (undici, or a test's in-memory API) is a Transport,
// and everything a person sees about it (verbose lines, retries) goes out through hooks.
import { VERSION } from "../support/package-info.js";
import type { ErrorBody } from "../contract/values.js";
import { ApiError, type NetworkError } from "./errors.js";
import { isWrongBaseUrl, missingVersionHint, wrongBaseUrl } from "./internal/base-url-check.js";
import { hintForStatus, notThisApiHint } from "./internal/hints.js";
import { parseRetryAfter, retryDelay, type AttemptOutcome } from "./internal/retry-policy.js";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The most of one answer the client reads (32 MiB; the largest real answer, a page of 100 pets
 * with 200-character names, is about 30 kB): past it the answer is dropped and the command fails.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** Response headers, lower-case names; repeated headers joined with ", ". */
export type ResponseHeaders = Record<string, string | undefined>;

export interface ApiResponse<T> {
  status: number;
  headers: ResponseHeaders;
  body: T;
  url: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /**
   * More request headers, lower-case names (`if-match`, or a `content-type` other than
   * application/json); they win over the client's own, except Authorization.
   */
  headers?: Record<string, string>;
  /** Sees the headers of the final response, success or error, before it is returned or thrown. */
  onResponse?: (headers: ResponseHeaders) => void;
  /** false: a 429 is thrown at once rather than waited out (`status` shows what it says). */
  waitForQuota?: boolean;
}

export interface ApiClient {
  /** `target` is a path under the base URL (`/pets`) or an absolute URL on its origin (a Link). */
  request<T>(method: Method, target: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /**
   * One GET whose body is followed as it arrives; no retries (the caller reconnects, it knows
   * where it left off). Throws ApiError for a non-2xx answer, NetworkError without one.
   */
  stream?(target: string, options: Pick<RequestOptions, "query" | "headers"> & { signal: AbortSignal }): Promise<StreamResponse>;
  close(): Promise<void>;
}

/** What the client needs of the settings (settings.ts's Settings has them all). */
export interface HttpSettings {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  retries: number;
  /** The most one request may spend waiting between its attempts (--max-wait). */
  maxWaitMs: number;
  /** The PEM file of certificates trusted besides Node's (--ca-cert), for the transport and its hints. */
  caCert?: string;
}

/** One request as it goes on the wire. */
export interface WireRequest {
  method: Method;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** What one attempt produced: an answer, or a failure without one. */
export type Attempt =
  | { kind: "answer"; status: number; headers: ResponseHeaders; text: string }
  | { kind: "failure"; error: NetworkError | ApiError; transient: boolean };

/** A streaming request's outcome: the body as it arrives (2xx), else an answer read whole, or a failure. */
export type StreamAttempt =
  | { kind: "stream"; status: number; headers: ResponseHeaders; body: AsyncIterable<Uint8Array> }
  | Attempt;

/** Sends one attempt; never throws (a failure is an Attempt too). */
export interface Transport {
  /** `signal` gives the attempt up early (Ctrl-C): it ends as a failure, as a time limit does. */
  send(request: WireRequest, signal?: AbortSignal): Promise<Attempt>;
  /** Opens a response that is read as it arrives (text/event-stream); aborted by `signal`. Absent: cannot stream. */
  open?(request: WireRequest, signal: AbortSignal): Promise<StreamAttempt>;
  close(): Promise<void>;
}

/** An open stream's answer. */
export interface StreamResponse {
  headers: ResponseHeaders;
  body: AsyncIterable<Uint8Array>;
}

/** What the output layer wants to know; http.ts decides and waits, the hooks only print. */
export interface HttpHooks {
  onRequest?(request: WireRequest): void;
  onAttempt?(attempt: Attempt, elapsedMs: number): void;
  onRetry?(retry: { delayMs: number; retry: number; of: number; after: Attempt }): void;
}

export interface HttpDeps extends HttpHooks {
  transport: Transport;
  now: () => number;
  /** Waits; tests pass one that records the delay instead of sleeping. */
  sleep: (ms: number) => Promise<void>;
  /** Uniform in [0, 1): jitter for backoff. */
  random: () => number;
  /** The Idempotency-Key of a POST; a random UUID unless a test chooses. */
  idempotencyKey?: () => string;
}

export function createApiClient(settings: HttpSettings, deps: HttpDeps): ApiClient {
  const send = async (request: WireRequest): Promise<Attempt> => {
    deps.onRequest?.(request);
    const started = deps.now();
    const attempt = await deps.transport.send(request);
    deps.onAttempt?.(attempt, deps.now() - started);
    return attempt;
  };
  return {
    async request<T>(method: Method, target: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
      const url = resolveTarget(settings.baseUrl, target, options.query);
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      const headers = { ...requestHeaders(body !== undefined), ...options.headers, ...authorization(settings.apiKey) };
      // One key for all the attempts of this POST, so the server runs it at most once and a lost
      // answer can be asked for again (retry-policy.ts then treats the POST as repeatable).
      // A caller's own key wins: `pets import` derives one from the file, so a re-run replays.
      if (method === "POST") headers["idempotency-key"] = options.headers?.["idempotency-key"] ?? (deps.idempotencyKey ?? randomUUID)();
      const wire: WireRequest = { method, url, headers, body };
      let waitedMs = 0;
      let repeated = false;
      for (let attempt = 0; ; attempt++) {
        const result = await send(wire);
        const outcome = outcomeOf(result, deps.now());
        const policy = { retries: settings.retries, maxWaitMs: settings.maxWaitMs, waitedMs, random: deps.random };
        const delay = outcome.status === 429 && options.waitForQuota === false ? undefined : retryDelay(wire, outcome, attempt, policy);
        if (delay === undefined) {
          if (result.kind === "failure") throw result.error;
          options.onResponse?.(result.headers);
          if (result.status >= 300 && result.status <= 399) throw redirectError(result, url);
          if (result.status < 200 || result.status > 299) {
            const sent = { apiKeySent: Boolean(settings.apiKey), retriesMade: attempt, repeated };
            throw apiErrorOf(result, wire, settings.baseUrl, outcome.retryAfterMs, sent, deps.now());
          }
          return { status: result.status, headers: result.headers, body: parseBody(result, url, settings.baseUrl) as T, url };
        }
        // A 429 was refused before any work; anything else retried may have done the work.
        repeated ||= outcome.status !== 429;
        deps.onRetry?.({ delayMs: delay, retry: attempt + 1, of: settings.retries, after: result });
        await deps.sleep(delay);
        waitedMs += delay;
      }
    },
    async stream(target, options) {
      const open = deps.transport.open;
      if (!open) throw new Error("this transport cannot follow a stream");
      const url = resolveTarget(settings.baseUrl, target, options.query);
      const headers = { ...requestHeaders(false), accept: "text/event-stream", ...options.headers, ...authorization(settings.apiKey) };
      const wire: WireRequest = { method: "GET", url, headers, body: undefined };
      deps.onRequest?.(wire);
      const result = await open.call(deps.transport, wire, options.signal);
      if (result.kind === "failure") throw result.error;
      if (result.kind === "stream") return { headers: result.headers, body: result.body };
      const outcome = outcomeOf(result, deps.now());
      throw apiErrorOf(result, wire, settings.baseUrl, outcome.retryAfterMs, { apiKeySent: Boolean(settings.apiKey), retriesMade: 0, repeated: false }, deps.now());
    },
    close: () => deps.transport.close(),
  };
}

/** The absolute URL for a path under the base URL, or a link, refusing to carry the key to another origin. */
export function resolveTarget(baseUrl: string, target: string, query: RequestOptions["query"] = {}): string {
  const url = /^https?:\/\//i.test(target) ? new URL(target) : new URL(`${baseUrl.replace(/\/+$/, "")}${target}`);
  const origin = new URL(baseUrl).origin;
  if (url.origin !== origin) {
    throw new Error(`refusing to follow ${url.origin}: it is not the base URL's origin ${origin}, and the API key would go with it`);
  }
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.toString();
}

function requestHeaders(hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json", "user-agent": `petstore-cli/${VERSION}` };
  if (hasBody) headers["content-type"] = "application/json";
  return headers;
}

/** Set last, so no caller's headers can replace or drop the key the settings paired with this host. */
function authorization(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

function outcomeOf(attempt: Attempt, nowMs: number): AttemptOutcome {
  if (attempt.kind === "failure") return { transient: attempt.transient };
  return { status: attempt.status, retryAfterMs: parseRetryAfter(attempt.headers["retry-after"], nowMs) };
}

/** The ApiError for a non-2xx answer, with the hint that fits it. */
function apiErrorOf(
  answer: Extract<Attempt, { kind: "answer" }>,
  wire: Pick<WireRequest, "method" | "url">,
  baseUrl: string,
  retryAfterMs: number | undefined,
  sent: { apiKeySent: boolean; retriesMade: number; repeated: boolean },
  nowMs: number,
): ApiError {
  const url = wire.url;
  const body = errorBody(answer.status, answer.text, url);
  if (body.code !== UNEXPECTED && isWrongBaseUrl(answer.status, baseUrl, url)) {
    const wrong = wrongBaseUrl(baseUrl, wire.method, url);
    return new ApiError(wrong.body, wrong.hint, undefined, sent.repeated);
  }
  const waitMs = retryAfterMs ?? resetWait(answer.headers["x-ratelimit-reset"], nowMs);
  const context = { ...sent, waitMs, nowMs, path: new URL(url).pathname };
  const retryAfter = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  const hint = body.code === UNEXPECTED ? notThisApiHint(new URL(url).origin) : (hintForStatus(body, context) ?? notFoundHint(answer.status, baseUrl));
  return new ApiError(body, hint, retryAfter, sent.repeated);
}

/** A record's 404 under a base URL without /v1 is still "not found", with the URL to try. */
function notFoundHint(status: number, baseUrl: string): string | undefined {
  return status === 404 ? missingVersionHint(baseUrl) : undefined;
}

/** The code of an answer that is not the API's (see errorBody); exit 1, never "not found". */
const UNEXPECTED = "unexpected_response";

/**
 * The API never redirects, so a 3xx comes from something else at the base URL. It is not
 * followed: to another host the key would go with it, and on the same host it is still not
 * the API answering (gh refuses a redirect to another host too; curl follows only with -L).
 */
function redirectError(answer: Extract<Attempt, { kind: "answer" }>, url: string): ApiError {
  const location = answer.headers.location;
  const to = location === undefined ? "without a Location" : `to ${location}`;
  const body = { code: UNEXPECTED, message: `HTTP ${answer.status} from ${url} redirects ${to}; petstore follows no redirect`, status: answer.status };
  return new ApiError(body, "The API never redirects, and a redirect could carry the API key to another host. Set the base URL to where the API answers.");
}

function parseBody(answer: Extract<Attempt, { kind: "answer" }>, url: string, baseUrl: string): unknown {
  if (answer.text === "") return undefined;
  const type = answer.headers["content-type"];
  if (type !== undefined && !isJsonType(type)) {
    const body = { code: UNEXPECTED, message: `the answer from ${url} is ${type.split(";")[0]?.trim()}, not JSON: ${answer.text.slice(0, 80)}`, status: answer.status };
    throw new ApiError(body, notThisApiHint(new URL(baseUrl).origin));
  }
  try {
    return JSON.parse(answer.text);
  } catch {
    const body = { code: UNEXPECTED, message: `the answer from ${url} is not JSON: ${answer.text.slice(0, 80)}`, status: answer.status };
    throw new ApiError(body, notThisApiHint(new URL(baseUrl).origin));
  }
}

/** application/json and the +json types (problem+json, merge-patch+json); a missing type is given the benefit of the doubt. */
function isJsonType(type: string): boolean {
  const essence = type.split(";")[0]?.trim().toLowerCase() ?? "";
  return essence === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(essence);
}

/** The server's Error body, or one made up from the status when the answer is not one (a proxy's HTML page). */
function errorBody(status: number, text: string, url: string): ErrorBody {
  try {
    const body = JSON.parse(text) as Partial<ErrorBody> | null;
    if (typeof body?.code === "string" && typeof body.message === "string" && typeof body.status === "number") {
      return { code: body.code, message: body.message, status: body.status };
    }
  } catch {
    // Not JSON: fall through to the made-up body.
  }
  return { code: UNEXPECTED, message: `HTTP ${status} from ${url} without the API's Error body`, status };
}

function resetWait(reset: string | undefined, nowMs: number): number | undefined {
  if (reset === undefined || !/^\d+$/.test(reset.trim())) return undefined;
  return Math.max(0, Number(reset) * 1000 - nowMs);
}

// node:crypto (with its dozen internal modules) is evaluated by the first POST, not by every start.
function randomUUID(): string {
  return process.getBuiltinModule("node:crypto").randomUUID();
}
