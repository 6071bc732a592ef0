// The client side of HTTP: one keep-alive undici Agent per command, timeouts, retries with
// backoff and Retry-After, and every failure turned into ApiError or NetworkError.
import { Agent, request } from "undici";
import pkg from "../../package.json" with { type: "json" };
import type { ErrorBody } from "../contract/values.js";
import type { CliContext } from "./context.js";
import { ApiError, type NetworkError } from "./errors.js";
import { hintForStatus, networkFailure } from "./internal/hints.js";
import { parseRetryAfter, retryDelay, type AttemptOutcome } from "./internal/retry-policy.js";
import { describeSources, type Settings } from "./settings.js";

export type Method = "GET" | "POST" | "DELETE";
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
  /** Sees the headers of the final response, success or error, before it is returned or thrown. */
  onResponse?: (headers: ResponseHeaders) => void;
}

export interface ApiClient {
  /** `target` is a path under the base URL (`/pets`) or an absolute URL on its origin (a Link). */
  request<T>(method: Method, target: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export type HttpSettings = Pick<Settings, "baseUrl" | "apiKey" | "timeoutMs" | "retries" | "verbose"> &
  Partial<Pick<Settings, "envName" | "sources">>;
type HttpContext = Pick<CliContext, "io" | "now" | "sleep" | "random">;

type Attempt =
  | { kind: "answer"; status: number; headers: ResponseHeaders; text: string }
  | { kind: "failure"; error: NetworkError; transient: boolean };

/** Runs `use` with a client and closes its connections afterwards, so the process can exit. */
export async function withApiClient<T>(settings: HttpSettings, ctx: HttpContext, use: (api: ApiClient) => Promise<T>): Promise<T> {
  const api = createApiClient(settings, ctx);
  try {
    return await use(api);
  } finally {
    await api.close();
  }
}

export function createApiClient(settings: HttpSettings, ctx: HttpContext): ApiClient {
  const agent = new Agent({ keepAliveTimeout: 10_000, connect: { timeout: settings.timeoutMs } });
  const log = (line: string) => {
    if (settings.verbose) ctx.io.stderr.write(`${line}\n`);
  };
  if (settings.sources) log(describeSources({ baseUrl: settings.baseUrl, envName: settings.envName, sources: settings.sources }));
  const send = async (method: Method, url: string, body: unknown): Promise<Attempt> => {
    log(`> ${method} ${url}`);
    const started = ctx.now();
    const attempt = await attemptOnce(agent, settings, method, url, body);
    const result = attempt.kind === "answer" ? `HTTP ${attempt.status}` : attempt.error.message;
    log(`< ${result} (${ctx.now() - started} ms)`);
    return attempt;
  };
  return {
    async request<T>(method: Method, target: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
      const url = resolveTarget(settings.baseUrl, target, options.query);
      for (let attempt = 0; ; attempt++) {
        const result = await send(method, url, options.body);
        const outcome = outcomeOf(result, ctx.now());
        const delay = retryDelay(method, outcome, attempt, { retries: settings.retries, random: ctx.random });
        if (delay === undefined) {
          if (result.kind === "failure") throw result.error;
          options.onResponse?.(result.headers);
          if (result.status < 200 || result.status > 299) throw apiErrorOf(result, url, outcome.retryAfterMs, settings, ctx.now());
          return { status: result.status, headers: result.headers, body: parseBody(result.text, url) as T, url };
        }
        if (settings.verbose || ctx.io.isStderrTTY) {
          const why = result.kind === "answer" ? `HTTP ${result.status}` : result.error.message;
          // On a terminal, first clear a progress line that may be showing.
          const clear = ctx.io.isStderrTTY ? "\r\x1b[2K" : "";
          ctx.io.stderr.write(`${clear}Retrying in ${(delay / 1000).toFixed(1)} s after ${why} (retry ${attempt + 1} of ${settings.retries})\n`);
        }
        await ctx.sleep(delay);
      }
    },
    close: () => agent.close(),
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

async function attemptOnce(agent: Agent, settings: HttpSettings, method: Method, url: string, body: unknown): Promise<Attempt> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  try {
    const response = await request(url, {
      dispatcher: agent,
      method,
      headers: requestHeaders(settings.apiKey, body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    const text = await response.body.text();
    return { kind: "answer", status: response.statusCode, headers: flattenHeaders(response.headers), text };
  } catch (error) {
    return { kind: "failure", ...networkFailure(error, controller.signal.aborted, url, settings) };
  } finally {
    clearTimeout(timer);
  }
}

function requestHeaders(apiKey: string | undefined, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json", "user-agent": `petstore-cli/${pkg.version}` };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (hasBody) headers["content-type"] = "application/json";
  return headers;
}

function outcomeOf(attempt: Attempt, nowMs: number): AttemptOutcome {
  if (attempt.kind === "failure") return { transient: attempt.transient };
  return { status: attempt.status, retryAfterMs: parseRetryAfter(attempt.headers["retry-after"], nowMs) };
}

/** The ApiError for a non-2xx answer, with the hint that fits it. */
function apiErrorOf(
  answer: Extract<Attempt, { kind: "answer" }>,
  url: string,
  retryAfterMs: number | undefined,
  settings: HttpSettings,
  nowMs: number,
): ApiError {
  const body = errorBody(answer.status, answer.text, url);
  const waitMs = retryAfterMs ?? resetWait(answer.headers["x-ratelimit-reset"], nowMs);
  const context = { apiKeySent: Boolean(settings.apiKey), waitMs, retries: settings.retries, path: new URL(url).pathname };
  const retryAfter = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  return new ApiError(body, hintForStatus(body, context), retryAfter);
}

function parseBody(text: string, url: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`the answer from ${url} is not JSON: ${text.slice(0, 80)}`);
  }
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
  return { code: "unexpected_response", message: `HTTP ${status} from ${url} without an Error body`, status };
}

function resetWait(reset: string | undefined, nowMs: number): number | undefined {
  if (reset === undefined || !/^\d+$/.test(reset.trim())) return undefined;
  return Math.max(0, Number(reset) * 1000 - nowMs);
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): ResponseHeaders {
  const flat: ResponseHeaders = {};
  for (const [name, value] of Object.entries(headers)) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}
