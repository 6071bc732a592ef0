// One delivery attempt over HTTP: a signed POST, never following a redirect, given up after the
// timeout, with the first 1 KiB of the answer kept for GET .../deliveries. The answer is read by
// a handler of undici's dispatch API, not through request()'s stream and promise: per attempt,
// at thousands a second, that machinery cost more than the HTTP itself.
import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import { signWebhook } from "../../support/standard-webhooks.js";
import { messageOf } from "../../support/error-text.js";
import { AttemptDeadlines, type Cuttable, type DeadlineClock } from "./attempt-deadlines.js";

/** The answer bytes kept per attempt. */
export const RESPONSE_KEPT_BYTES = 1024;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
const URLS_KEPT = 1024;

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
  /** Where connections go; it decides where a connection may go (the SSRF guard). */
  dispatcher: Pick<Dispatcher, "dispatch">;
  userAgent: string;
  timeoutMs: number;
  /** Wall-clock seconds for webhook-timestamp (a receiver compares it with its own clock). */
  nowSeconds: () => number;
  /** Elapsed time (performance.now) and real timers: the duration and the timeout. */
  clock: DeadlineClock;
}

/** Sends signed deliveries; `cutAll` ends every attempt under way (the sender is being thrown away). */
export class WebhookSender {
  readonly #deps: SenderDeps;
  readonly #deadlines: AttemptDeadlines;
  readonly #urls = new Map<string, { origin: string; path: string }>();

  constructor(deps: SenderDeps) {
    this.#deps = deps;
    this.#deadlines = new AttemptDeadlines(deps.timeoutMs, deps.clock);
  }

  /** POSTs one signed delivery; never throws: a failure is in the result. */
  send(target: WebhookRequest): Promise<SendResult> {
    const deps = this.#deps;
    return new Promise((resolve) => {
      const attempt = new Attempt(deps, (result) => {
        this.#deadlines.delete(attempt);
        resolve(result);
      });
      this.#deadlines.add(attempt);
      try {
        const url = this.#parsed(target.url);
        const signed = signWebhook({ id: target.messageId, timestamp: deps.nowSeconds(), body: target.body, secrets: target.secrets });
        deps.dispatcher.dispatch(
          {
            origin: url.origin,
            path: url.path,
            method: "POST",
            headers: { "content-type": "application/json", "user-agent": deps.userAgent, ...signed },
            body: target.body,
            headersTimeout: deps.timeoutMs,
            bodyTimeout: deps.timeoutMs,
          },
          attempt,
        );
      } catch (error) {
        attempt.onResponseError(undefined, error as Error);
      }
    });
  }

  /** Each endpoint's URL parsed once, not once per delivery (the few endpoints' URLs, bounded all the same). */
  #parsed(text: string): { origin: string; path: string } {
    let parsed = this.#urls.get(text);
    if (!parsed) {
      const url = new URL(text);
      parsed = { origin: url.origin, path: url.pathname + url.search };
      if (this.#urls.size >= URLS_KEPT) this.#urls.clear();
      this.#urls.set(text, parsed);
    }
    return parsed;
  }

  cutAll(): void {
    this.#deadlines.cutAll();
  }
}

/** One attempt's handler: the status, Retry-After and the first bytes of the answer, or why none came. */
class Attempt implements Dispatcher.DispatchHandler, Cuttable {
  readonly startedAt: number;
  readonly #deps: SenderDeps;
  readonly #done: (result: SendResult) => void;
  #controller: Dispatcher.DispatchController | undefined;
  #cutFor: "timeout" | "stopped" | undefined;
  #statusCode: number | null = null;
  #retryAfter: string | undefined;
  #chunks: Buffer[] = [];
  #size = 0;
  #settled = false;

  constructor(deps: SenderDeps, done: (result: SendResult) => void) {
    this.#deps = deps;
    this.#done = done;
    this.startedAt = deps.clock.elapsedMs();
  }

  cut(reason: "timeout" | "stopped"): void {
    this.#cutFor ??= reason;
    // Not yet on a connection: it is cut off as it starts (a connect is bounded by its own timeout).
    this.#controller?.abort(new Error(reason));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#cutFor) controller.abort(new Error(this.#cutFor));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.#statusCode = statusCode;
    this.#retryAfter = headerOf(headers["retry-after"]);
    this.#chunks = [];
    this.#size = 0;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    // Enough kept: the rest is not read (a receiver may send megabytes), and the connection goes.
    if (this.#size >= RESPONSE_KEPT_BYTES) {
      this.#answered();
      controller.abort(new Error("answer read"));
    }
  }

  onResponseEnd(): void {
    this.#answered();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    const timedOut = this.#cutFor === "timeout" || isTimeout(error);
    const why = timedOut ? `no answer within ${this.#deps.timeoutMs / 1000} s` : describeFailure(error);
    this.#settle({ statusCode: null, error: why, response: null, durationMs: this.#elapsed() });
  }

  #answered(): void {
    // NUL as U+FFFD, as bytes that are not UTF-8 already are: PostgreSQL's text cannot hold it, so
    // the attempt could not be recorded and the delivery would be sent again and again.
    const response = Buffer.concat(this.#chunks).subarray(0, RESPONSE_KEPT_BYTES).toString("utf8").replaceAll("\u0000", "\ufffd");
    const retryAfter = this.#retryAfter;
    this.#settle({ statusCode: this.#statusCode, error: null, response, durationMs: this.#elapsed(), ...(retryAfter ? { retryAfter } : {}) });
  }

  #settle(result: SendResult): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#chunks = [];
    this.#done(result);
  }

  #elapsed(): number {
    return this.#deps.clock.elapsedMs() - this.startedAt;
  }
}

/** undici's own waits for the answer's head and for each piece of its body. */
function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
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
