// The delivering half of `petstore events --forward-to`: events wait in a bounded queue and are
// POSTed to the receiver one at a time, in order, each signed the Standard Webhooks way and
// retried until the receiver takes it or answers that it never will.
import type { StoreEvent } from "../../contract/events.js";
import { signWebhook } from "../../support/standard-webhooks.js";
import type { Attempt, Transport } from "../http.js";
import { parseRetryAfter } from "./retry-policy.js";

/**
 * Events held in memory at most. When the receiver falls this far behind, the stream is left
 * unread: the server then cuts it (past its 1 MiB per stream) and it resumes with Last-Event-ID
 * from the server's backlog once the queue has room, so memory stays bounded and nothing is skipped.
 */
export const MAX_PENDING_EVENTS = 500;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** A receiver's Retry-After is honoured up to this; a local receiver asking for more is waited on less. */
const MAX_RETRY_AFTER_MS = 60_000;

export interface ForwardTarget {
  url: string;
  /** Each signs every delivery (one `v1,` signature per secret). */
  secrets: readonly string[];
  userAgent: string;
}

/** How one attempt went: delivered (2xx), retrying (no answer, 408, 429, 5xx), or failed for good (3xx, other 4xx). */
export interface DeliveryReport {
  event: StoreEvent;
  webhookId: string;
  attempt: number;
  /** When the attempt ended (ms since 1970). */
  at: number;
  ms: number;
  /** The receiver's status; undefined when it gave no answer. */
  status?: number;
  /** Why there was no answer (refused, timed out). */
  error?: string;
  outcome: "delivered" | "retrying" | "failed";
  /** Set when retrying. */
  retryInMs?: number;
}

export interface ForwardDeps {
  transport: Transport;
  now: () => number;
  /** Waits, or less when the signal aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1): jitter for backoff. */
  random: () => number;
  onDelivery: (report: DeliveryReport) => void;
  /** Stops the deliveries; an attempt in flight is given up (the event stays undelivered). */
  signal: AbortSignal;
}

export interface ForwardQueue {
  /** Queues an event and its body; a promise when the queue is full, settled once there is room (or on stop). */
  push(event: StoreEvent, body: string): Promise<void> | undefined;
  /** Delivers the queued events in order until the signal aborts. */
  run(): Promise<void>;
  /** The events queued and not delivered yet, oldest first. */
  undelivered(): StoreEvent[];
}

/** Stable for an event across attempts and runs, so a receiver can drop a repeat. */
export const webhookIdOf = (event: StoreEvent): string => `evt_${event.id}`;

export function createForwardQueue(target: ForwardTarget, deps: ForwardDeps, capacity = MAX_PENDING_EVENTS): ForwardQueue {
  const queue: { event: StoreEvent; body: string }[] = [];
  let wakeDeliverer: (() => void) | undefined;
  let wakeStream: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => deps.signal.addEventListener("abort", () => resolve(), { once: true }));
  return {
    push(event, body) {
      queue.push({ event, body });
      wakeDeliverer?.();
      if (queue.length < capacity || deps.signal.aborted) return undefined;
      return Promise.race([new Promise<void>((resolve) => (wakeStream = resolve)), stopped]);
    },
    async run() {
      while (!deps.signal.aborted) {
        const next = queue[0];
        if (next === undefined) {
          await Promise.race([new Promise<void>((resolve) => (wakeDeliverer = resolve)), stopped]);
          continue;
        }
        if (!(await deliver(next.event, next.body, target, deps))) return;
        queue.shift();
        wakeStream?.();
      }
    },
    undelivered: () => queue.map((item) => item.event),
  };
}

/** Attempts one event until it is delivered or failed for good (true), or the signal aborts (false). */
async function deliver(event: StoreEvent, body: string, target: ForwardTarget, deps: ForwardDeps): Promise<boolean> {
  const webhookId = webhookIdOf(event);
  for (let attempt = 1; ; attempt++) {
    const started = deps.now();
    // The timestamp is the attempt's, as the spec says, so a retry is not refused as a replay.
    const signed = signWebhook({ id: webhookId, timestamp: Math.floor(started / 1000), body, secrets: target.secrets });
    const headers = { "content-type": "application/json", "user-agent": target.userAgent, ...signed };
    const result = await deps.transport.send({ method: "POST", url: target.url, headers, body }, deps.signal);
    if (deps.signal.aborted) return false;
    const at = deps.now();
    const report = { event, webhookId, attempt, at, ms: at - started, ...answerOf(result) };
    const outcome = outcomeOf(result);
    if (outcome !== "retrying") {
      deps.onDelivery({ ...report, outcome });
      return true;
    }
    const retryInMs = retryDelay(attempt, result, at, deps.random);
    deps.onDelivery({ ...report, outcome, retryInMs });
    await deps.sleep(retryInMs, deps.signal);
    if (deps.signal.aborted) return false;
  }
}

function answerOf(result: Attempt): Pick<DeliveryReport, "status" | "error"> {
  return result.kind === "answer" ? { status: result.status } : { error: result.error.message };
}

/**
 * A 2xx is delivered. No answer, 408, 429 and 5xx may pass: retried. A 3xx or another 4xx is the
 * receiver's considered answer (a wrong path, a signature it refuses): retrying it would hold every
 * later event behind it for good, so it is reported and the next event goes.
 */
export function outcomeOf(result: Attempt): DeliveryReport["outcome"] {
  if (result.kind === "failure") return "retrying";
  const { status } = result;
  if (status >= 200 && status <= 299) return "delivered";
  if (status === 408 || status === 429 || status >= 500) return "retrying";
  return "failed";
}

/** Exponential backoff with jitter, or the receiver's Retry-After when it asks for longer (up to a minute). */
function retryDelay(attempt: number, result: Attempt, nowMs: number, random: () => number): number {
  const backoff = Math.round(Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempt - 1)) * (0.5 + random() / 2));
  const asked = result.kind === "answer" ? parseRetryAfter(result.headers["retry-after"], nowMs) : undefined;
  return asked === undefined ? backoff : Math.max(backoff, Math.min(asked, MAX_RETRY_AFTER_MS));
}
