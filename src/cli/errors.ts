import type { ErrorBody } from "../contract/values.js";

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  unreachable: 6,
} as const;

/** Bad flags or arguments, found before any request is sent. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The server answered with an Error body. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly body: ErrorBody,
    readonly hint?: string,
    /** Seconds the server asked us to wait (429), when it said. */
    readonly retryAfter?: number,
    /**
     * An earlier attempt of the same request may have reached the server (it got no answer, or
     * a gateway's 502/503/504), so this answer may follow work that attempt did: a 404 to a
     * repeated DELETE, a 412 to a repeated PATCH with If-Match.
     */
    readonly repeated = false,
  ) {
    super(body.message);
  }
}

/** No answer: connection refused, DNS failure, timeout. */
export class NetworkError extends Error {
  override name = "NetworkError";
  constructor(
    message: string,
    readonly hint?: string,
    /** For --json: `timeout`, `untrusted_certificate`, or `unreachable` for everything else. */
    readonly code: "unreachable" | "timeout" | "untrusted_certificate" = "unreachable",
    /** The server took the connection, then it was lost (reset, closed): a server that is there. */
    readonly dropped = false,
  ) {
    super(message);
  }
}

/**
 * The key's quota is spent and comes back later than --max-wait allows, so a command stopped
 * rather than wait (exit 5, as a 429 after the retries): the message says which window and when.
 */
export class QuotaSpentError extends Error {
  override name = "QuotaSpentError";
  constructor(
    message: string,
    readonly hint: string,
    /** Seconds until the quota is back. */
    readonly retryAfter: number,
  ) {
    super(message);
  }
}

/**
 * An answer that came but cannot be used as the API's (a Link that is not a URL): exit 1, with
 * what was wrong; the value is quoted only as far as it helps.
 */
export class AnswerError extends Error {
  override name = "AnswerError";
}

/**
 * The reader of the output has gone (EPIPE: `petstore events | head -1`). The command stops where
 * it is and exits 0 without a word, as `git log | head` does: the reader had what it wanted.
 */
export class OutputClosedError extends Error {
  override name = "OutputClosedError";
  constructor() {
    super("the output's reader has gone (EPIPE)");
  }
}

/** Already reported to the user; only the exit code is left to set. */
export class SilentError extends Error {
  override name = "SilentError";
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

/**
 * Codes the client gives answers that are not the API's (an HTML page, a redirect, an answer
 * too large or of the wrong shape): exit 1, never "not found" or "key refused" whatever their status.
 */
export const UNEXPECTED_CODES: ReadonlySet<string> = new Set(["unexpected_response", "response_too_large"]);

/** The one place where errors become exit codes. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof SilentError) return error.exitCode;
  if (error instanceof OutputClosedError) return ExitCode.ok;
  if (error instanceof UsageError) return ExitCode.usage;
  if (error instanceof NetworkError) return ExitCode.unreachable;
  if (error instanceof QuotaSpentError) return ExitCode.rateLimited;
  // An answer that is not the API's (an HTML page, a 404 off the API prefix) is not "not found".
  if (error instanceof ApiError && !UNEXPECTED_CODES.has(error.body.code)) {
    const status = error.body.status;
    if (status === 401 || status === 403) return ExitCode.auth;
    if (status === 404) return ExitCode.notFound;
    if (status === 429) return ExitCode.rateLimited;
  }
  return ExitCode.failure;
}
