// What to tell the user after a failed request: the error itself and, where one helps, a hint.
import type { ErrorBody } from "../../contract/values.js";
import { messageOf } from "../../support/error-text.js";
import { NetworkError } from "../errors.js";

const KEY_HINT = "--api-key, PETSTORE_API_KEY, or `petstore config set api-key -` (reads the key from stdin)";
const TRANSIENT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

interface StatusHintContext {
  apiKeySent: boolean;
  /** How long the server asked us to wait, when it said (Retry-After, else X-RateLimit-Reset). */
  waitMs: number | undefined;
  retries: number;
  path: string;
}

export function hintForStatus(body: ErrorBody, context: StatusHintContext): string | undefined {
  switch (body.status) {
    case 401:
      return context.apiKeySent
        ? `The API key was refused. Set another with ${KEY_HINT}.`
        : `No API key was sent. Set one with ${KEY_HINT}.`;
    case 403:
      return context.path.includes("/keys")
        ? "Managing keys needs an admin key (the one the server was started with in PETSTORE_ADMIN_KEY)."
        : undefined;
    case 429:
      return rateLimitHint(body, context);
    case 503:
      return context.waitMs === undefined ? undefined : `The server is unavailable for now; retry in ${seconds(context.waitMs)} s.`;
    default:
      return undefined;
  }
}

function rateLimitHint(body: ErrorBody, context: StatusHintContext): string {
  const after = context.retries > 0 ? `Still rate-limited after ${context.retries} ${context.retries === 1 ? "retry" : "retries"}; ` : "Rate-limited; ";
  const when = context.waitMs === undefined ? "retry later" : `retry in ${seconds(context.waitMs)} s`;
  const banned = body.code === "key_banned" ? " The key is banned for a while after repeated requests over its limit." : "";
  return `${after}${when}.${banned}`;
}

/** Turns a failed attempt (no HTTP answer) into the error to report, and whether a GET may retry it. */
export function networkFailure(
  error: unknown,
  timedOut: boolean,
  url: string,
  settings: { baseUrl: string; timeoutMs: number },
): { error: NetworkError; transient: boolean } {
  const origin = new URL(url).origin;
  const serverHint = `Is a server running at ${settings.baseUrl}? Start one with \`petstore serve\`, or choose another with --base-url, PETSTORE_BASE_URL or --env.`;
  if (timedOut) {
    const message = `no answer from ${origin} within ${settings.timeoutMs} ms`;
    return { error: new NetworkError(message, `${serverHint} To wait longer, raise --timeout.`, "timeout"), transient: false };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ECONNREFUSED") return { error: new NetworkError(`connection refused by ${origin}`, serverHint), transient: true };
  if (code === "ENOTFOUND") {
    const message = `cannot resolve the host ${new URL(url).hostname}`;
    return { error: new NetworkError(message, `Check the base URL ${settings.baseUrl}.`), transient: false };
  }
  const reason = messageOf(error);
  return {
    error: new NetworkError(`request to ${origin} failed: ${reason}`, serverHint),
    transient: typeof code === "string" && TRANSIENT_CODES.has(code),
  };
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
