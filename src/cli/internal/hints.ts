// What to tell the user after a failed request: the error itself and, where one helps, a hint.
import type { ErrorBody } from "../../contract/values.js";
import { messageOf } from "../../support/error-text.js";
import { NetworkError } from "../errors.js";
import { certificateFailure } from "./certificate-hint.js";

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
  /** Retries actually made before giving up (0 when the wait was over --max-wait). */
  retriesMade: number;
  /** The clock when the answer came, for "banned until 23:15". */
  nowMs: number;
  path: string;
  /** An earlier attempt may have reached the server (see ApiError.repeated). */
  repeated: boolean;
}

export function hintForStatus(body: ErrorBody, context: StatusHintContext): string | undefined {
  switch (body.status) {
    case 401:
      return context.apiKeySent
        ? `The API key was refused. Set another with ${KEY_HINT}.`
        : `No API key was sent. Set one with ${KEY_HINT}.`;
    case 403:
      if (body.code === "insufficient_scope") return SCOPE_HINT;
      return adminHint(context.path);
    case 409:
    case 422:
      return idempotencyHint(body);
    case 412:
      return preconditionHint(context);
    case 429:
      return rateLimitHint(body, context);
    case 503:
      return context.waitMs === undefined ? undefined : `The server is unavailable for now; retry in ${seconds(context.waitMs)} s.`;
    default:
      return undefined;
  }
}

/** Keys and webhooks are managed with an admin key only: say which key that is. */
function adminHint(path: string): string | undefined {
  const what = /\/keys(\/|$)/.test(path) ? "keys" : /\/webhooks(\/|$)/.test(path) ? "webhooks" : undefined;
  if (what === undefined) return undefined;
  return (
    `Managing ${what} needs an admin key: the server's PETSTORE_ADMIN_KEY, or the bootstrap key printed by its first \`petstore serve\`` +
    " (keys made with `keys create` are never admin keys)."
  );
}

// The scope needed is in the server's message; what the key holds, and how to get another, here.
const SCOPE_HINT =
  "`petstore status` shows the key's scopes. A key's scopes never change: an admin can create one that has the scope needed" +
  " (`petstore keys create --plan <plan> --scopes <scope,...>`).";

/** The pet moved on since its ETag was read: read it again; maybe it was this command's own lost attempt. */
function preconditionHint(context: StatusHintContext): string {
  const id = /\/pets\/(\d+)$/.exec(context.path)?.[1];
  const fetch = id === undefined ? "fetch it again" : `fetch it again (\`petstore pets get ${id} --verbose\` shows its ETag)`;
  const own = context.repeated ? " An earlier attempt of this command got no answer and may have made that change itself." : "";
  return `The pet changed since that ETag was read.${own} To go on, ${fetch} and repeat with the new ETag.`;
}

/** The server keeps each Idempotency-Key's answer; these two say the key was busy or used otherwise. */
function idempotencyHint(body: ErrorBody): string | undefined {
  if (body.code === "idempotency_key_in_progress") {
    return "The same request is still being answered (its first attempt is slow); run the command again in a moment: it is not done twice.";
  }
  if (body.code === "idempotency_key_reused") return "Each command sends a fresh Idempotency-Key, so this is a bug: please report it.";
  return undefined;
}

function rateLimitHint(body: ErrorBody, context: StatusHintContext): string {
  const made = context.retriesMade;
  const after = made > 0 ? `Still rate-limited after ${made} ${made === 1 ? "retry" : "retries"}` : "Rate-limited";
  if (body.code === "key_banned") {
    const until = context.waitMs === undefined ? "" : ` until ${clockTime(context.nowMs + context.waitMs)} (${minutes(context.waitMs)} min)`;
    return `${after}: the key is banned${until} after repeated requests over its limit.`;
  }
  const when = context.waitMs === undefined ? "retry later" : `retry in ${seconds(context.waitMs)} s`;
  return `${after}; ${when}.`;
}

/** "23:15" in the local time zone (TZ). */
function clockTime(ms: number): string {
  const at = new Date(ms);
  return `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
}

function minutes(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

/** Turns a failed attempt (no HTTP answer) into the error to report, and whether it may pass (a repeatable request is retried). */
export function networkFailure(
  error: unknown,
  timedOut: boolean,
  url: string,
  settings: { baseUrl: string; timeoutMs: number; caCert?: string },
): { error: NetworkError; transient: boolean } {
  const origin = new URL(url).origin;
  const untrusted = certificateFailure(error, origin, settings.caCert);
  if (untrusted) return { error: untrusted, transient: false };
  const serverHint = `Is a server running at ${settings.baseUrl}? Start one with \`petstore serve\`, or choose another with --base-url, PETSTORE_BASE_URL or --env.`;
  if (timedOut) {
    const message = `no answer from ${origin} within ${settings.timeoutMs} ms`;
    // Transient: a slow moment may pass. Only requests safe to repeat are retried (retry-policy.ts).
    return { error: new NetworkError(message, `${serverHint} To wait longer, raise --timeout.`, "timeout"), transient: true };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ECONNREFUSED") return { error: new NetworkError(`connection refused by ${origin}`, serverHint), transient: true };
  if (code === "ENOTFOUND") {
    const message = `cannot resolve the host ${new URL(url).hostname}`;
    return { error: new NetworkError(message, `Check the base URL ${settings.baseUrl}.`), transient: false };
  }
  const reason = messageOf(error);
  const dropped = typeof code === "string" && DROPPED_CODES.has(code);
  return {
    error: new NetworkError(`request to ${origin} failed: ${reason}`, serverHint, "unreachable", dropped),
    transient: typeof code === "string" && TRANSIENT_CODES.has(code),
  };
}

/** A connection the server had taken, then lost. */
const DROPPED_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The hint for an answer that is not the API's: check the base URL. */
export function notThisApiHint(origin: string): string {
  return (
    `Something answers at ${origin}, but not as the petstore API does. Check the base URL: it ends with the API prefix, ` +
    "as in http://127.0.0.1:3000/v1 (--base-url, PETSTORE_BASE_URL or --env)."
  );
}
