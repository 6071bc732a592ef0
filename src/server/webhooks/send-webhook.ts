// One delivery attempt over HTTP: a signed POST, never following a redirect, given up after the
// timeout, with the first 1 KiB of the answer kept for GET .../deliveries.
import type { Dispatcher } from "undici";
import { signWebhook } from "../../support/standard-webhooks.js";
import { messageOf } from "../../support/error-text.js";

/** The answer bytes kept per attempt. */
export const RESPONSE_KEPT_BYTES = 1024;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookRequest {
  url: string;
  /** `msg_<delivery id>`: stable across retries of one event to one endpoint. */
  messageId: string;
  body: string;
  secrets: readonly string[];
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  response: string | null;
  retryAfter?: string;
  durationMs: number;
}

export interface SenderDeps {
  /** One request through the dispatcher, which decides where a connection may go (the SSRF guard). */
  dispatch: (options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  userAgent: string;
  timeoutMs: number;
  /** Wall-clock seconds for webhook-timestamp (a receiver compares it with its own clock). */
  nowSeconds: () => number;
  /** Elapsed time, for the duration (performance.now). */
  elapsedMs: () => number;
  /** Cuts every attempt off at once (the sender is being thrown away); the timeout applies as well. */
  stop?: AbortSignal;
}

/** POSTs one signed delivery; never throws: a failure is in the result. */
export async function sendWebhook(target: WebhookRequest, deps: SenderDeps): Promise<SendResult> {
  const started = deps.elapsedMs();
  const signed = signWebhook({ id: target.messageId, timestamp: deps.nowSeconds(), body: target.body, secrets: target.secrets });
  const timeout = AbortSignal.timeout(deps.timeoutMs);
  const signal = deps.stop ? AbortSignal.any([timeout, deps.stop]) : timeout;
  try {
    const url = new URL(target.url);
    const answer = await deps.dispatch({
      origin: url.origin,
      path: url.pathname + url.search,
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": deps.userAgent, ...signed },
      body: target.body,
      signal,
      headersTimeout: deps.timeoutMs,
      bodyTimeout: deps.timeoutMs,
    });
    const response = await firstBytes(answer.body, RESPONSE_KEPT_BYTES);
    const retryAfter = headerOf(answer.headers["retry-after"]);
    return { statusCode: answer.statusCode, error: null, response, durationMs: deps.elapsedMs() - started, ...(retryAfter ? { retryAfter } : {}) };
  } catch (error) {
    const why = timeout.aborted ? `no answer within ${deps.timeoutMs / 1000} s` : describeFailure(error);
    return { statusCode: null, error: why, response: null, durationMs: deps.elapsedMs() - started };
  }
}

/** Reads at most `limit` bytes, then drops the rest of the body (a receiver may send megabytes). */
async function firstBytes(body: Dispatcher.ResponseData["body"], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= limit) break;
    }
  } finally {
    body.destroy();
  }
  // NUL as U+FFFD, as bytes that are not UTF-8 already are: PostgreSQL's text cannot hold it, so
  // the attempt could not be recorded and the delivery would be sent again and again.
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8").replaceAll("\u0000", "\ufffd");
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  const name = typeof code === "string" ? code : typeof cause === "string" ? cause : undefined;
  return (name ? `${name}: ` : "") + messageOf(error).slice(0, 200);
}
