// Sends what the store says is due: claims due deliveries in rounds, keeps each endpoint's share
// in a bounded queue with a bounded number in flight, and records every attempt. A slow or dead
// receiver fills only its own queue; once full, the claim skips that endpoint, so the others'
// deliveries never wait behind it, and the rest of its deliveries stay in the store.
import type { AttemptOutcome, ClaimedDelivery, DeliveryRecord, DeliveryStore } from "../../store/delivery-store.js";
import type { SendResult, WebhookRequest } from "./send-webhook.js";
import { nextAttemptAt, retryAfterMs } from "./retry-schedule.js";

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What the worker reports, for /metrics and the once-per-outage log. */
export interface DeliveryObserver {
  attempted(claimed: ClaimedDelivery, result: SendResult, after: DeliveryRecord | undefined): void;
}

export interface DeliveryWorkerOptions {
  deliveries: DeliveryStore;
  send: (request: WebhookRequest) => Promise<SendResult>;
  /** The clock of due times and retry windows (ms). */
  now: () => number;
  random: () => number;
  timers: Timers;
  retryForMs: number;
  /** How often the store is asked for due retries when nothing wakes the worker. */
  pollMs?: number;
  /** Per endpoint. */
  maxInFlight?: number;
  /** Per endpoint: claimed deliveries waiting for a free slot. */
  maxBacklog?: number;
  /** Deliveries claimed per round. */
  claimLimit?: number;
  /** How long a claim holds; long enough for a full backlog to drain through timeouts. */
  leaseMs?: number;
  observer?: DeliveryObserver;
  /** A delivery has ended failed (retried for the whole window): the endpoint may be disabled. */
  failedForGood?: (claimed: ClaimedDelivery, after: DeliveryRecord) => Promise<void>;
  /** Told of a failure of the store itself (the next round tries again). */
  warn?: (message: string) => void;
}

interface Endpoint {
  queue: ClaimedDelivery[];
  /** Sent and not yet answered. */
  inFlight: number;
  /** Answered, and being recorded. */
  recording: number;
  /** A claim left its due deliveries in the store (its queue was full): claim again once it drains. */
  skipped: boolean;
}

// A receiver's rate is at most this many over its round trip (the server's own event loop included):
// 4 keeps a small receiver unflooded; serve --webhook-max-in-flight raises it for busy ones.
export const DEFAULT_MAX_IN_FLIGHT = 4;
const DEFAULTS = { pollMs: 1_000, maxInFlight: DEFAULT_MAX_IN_FLIGHT, maxBacklog: 16, claimLimit: 256, leaseMs: 120_000 };

export class DeliveryWorker {
  readonly #options: DeliveryWorkerOptions & typeof DEFAULTS;
  readonly #endpoints = new Map<number, Endpoint>();
  readonly #running = new Set<Promise<void>>();
  #timer: unknown;
  #claiming: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #abandoned = false;

  constructor(options: DeliveryWorkerOptions) {
    this.#options = { ...DEFAULTS, ...withoutUndefined(options) } as DeliveryWorkerOptions & typeof DEFAULTS;
  }

  /** Starts the first round; later ones follow each wake() and every pollMs. */
  start(): void {
    this.wake();
  }

  /** Something may be due now (a change committed, a retry asked for): claim soon. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#claiming) {
      this.#again = true;
      return;
    }
    this.#claiming = this.#round().finally(() => {
      this.#claiming = undefined;
      if (this.#again) {
        this.#again = false;
        this.wake();
      } else this.#schedule();
    });
  }

  /** Stops claiming; waits for the attempts under way (each ends within the send timeout). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#options.timers.clearTimeout(this.#timer);
    await this.#claiming;
    await Promise.all(this.#running);
  }

  /**
   * Stops at once, for a store about to be thrown away (a reset): nothing more is sent, and the
   * attempts under way, which the caller cuts off, are neither recorded nor reported.
   */
  async abandon(): Promise<void> {
    this.#abandoned = true;
    await this.stop();
  }

  /** Deliveries claimed by this instance and not yet recorded. */
  get held(): number {
    let held = 0;
    for (const endpoint of this.#endpoints.values()) held += endpoint.queue.length + endpoint.inFlight + endpoint.recording;
    return held;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#options.timers.clearTimeout(this.#timer);
    this.#timer = this.#options.timers.setTimeout(() => this.wake(), this.#options.pollMs);
  }

  async #round(): Promise<void> {
    const { deliveries, claimLimit, leaseMs, maxBacklog } = this.#options;
    const full = [...this.#endpoints].filter(([, endpoint]) => endpoint.queue.length >= maxBacklog).map(([id]) => id);
    for (const id of full) this.#endpointOf(id).skipped = true;
    let claimed: ClaimedDelivery[];
    try {
      claimed = await deliveries.claim({ now: new Date(this.#options.now()), limit: claimLimit, skipWebhooks: full, leaseMs });
    } catch (error) {
      this.#options.warn?.(`webhook deliveries: cannot read the due ones: ${(error as Error).message}`);
      return;
    }
    for (const item of claimed) this.#endpointOf(item.webhook.id).queue.push(item);
    for (const id of new Set(claimed.map((item) => item.webhook.id))) this.#pump(id);
    // A full round means more may be due at once.
    if (claimed.length >= claimLimit) this.#again = true;
  }

  #endpointOf(id: number): Endpoint {
    let endpoint = this.#endpoints.get(id);
    if (!endpoint) this.#endpoints.set(id, (endpoint = { queue: [], inFlight: 0, recording: 0, skipped: false }));
    return endpoint;
  }

  #pump(webhookId: number): void {
    if (this.#abandoned) return;
    const endpoint = this.#endpointOf(webhookId);
    while (endpoint.inFlight < this.#options.maxInFlight && endpoint.queue.length > 0) {
      const item = endpoint.queue.shift()!;
      endpoint.inFlight++;
      // The slot is the receiver's: it is free once the answer is in, and the next delivery goes
      // out while this attempt is made durable (its lease keeps it from being claimed meanwhile).
      let answered = false;
      const release = () => {
        if (answered) return;
        answered = true;
        endpoint.inFlight--;
        endpoint.recording++;
        this.#pump(webhookId);
      };
      const attempt = this.#attempt(item, release).finally(() => {
        this.#running.delete(attempt);
        release();
        endpoint.recording--;
        if (endpoint.queue.length === 0 && endpoint.inFlight === 0 && endpoint.recording === 0) this.#endpoints.delete(webhookId);
        else this.#pump(webhookId);
        // Room again in a queue that was full: its endpoint's deliveries left in the store are
        // claimable. (Others' new deliveries wake the worker as they are committed.)
        if (endpoint.skipped && endpoint.queue.length === 0 && !this.#stopped) {
          endpoint.skipped = false;
          this.wake();
        }
      });
      this.#running.add(attempt);
    }
  }

  async #attempt(item: ClaimedDelivery, answered: () => void): Promise<void> {
    const { delivery, webhook } = item;
    const result = await this.#options.send({
      url: webhook.url,
      messageId: `msg_${delivery.id}`,
      body: delivery.payload,
      secrets: signingSecrets(webhook, this.#options.now()),
    });
    if (this.#abandoned) return;
    answered();
    let after: DeliveryRecord | undefined;
    try {
      after = await this.#options.deliveries.record(delivery.id, this.#outcome(delivery, result));
    } catch (error) {
      // Left leased: once the lease ends, it is claimed and sent again (at least once).
      this.#options.warn?.(`webhook deliveries: cannot record an attempt: ${(error as Error).message}`);
    }
    this.#options.observer?.attempted(item, result, after);
    if (after?.status === "failed" && !isSuccess(result)) await this.#failedForGood(item, after);
  }

  async #failedForGood(item: ClaimedDelivery, after: DeliveryRecord): Promise<void> {
    try {
      await this.#options.failedForGood?.(item, after);
    } catch (error) {
      // The next delivery of this endpoint to end failed asks again.
      this.#options.warn?.(`webhook deliveries: cannot disable a failing endpoint: ${(error as Error).message}`);
    }
  }

  #outcome(delivery: DeliveryRecord, result: SendResult): AttemptOutcome {
    const now = this.#options.now();
    const succeeded = isSuccess(result);
    const next = succeeded
      ? null
      : nextAttemptAt({
          attempts: delivery.attempts + 1,
          createdAt: Date.parse(delivery.createdAt),
          now,
          retryForMs: this.#options.retryForMs,
          retryAfterMs: retryAfterMs(result.retryAfter, now),
          random: this.#options.random,
        });
    return {
      at: new Date(now),
      succeeded,
      statusCode: result.statusCode,
      error: result.error ?? (succeeded ? null : `answered ${result.statusCode}`),
      response: result.response,
      durationMs: Math.round(result.durationMs * 1000) / 1000,
      nextAttemptAt: next === null ? null : new Date(next),
    };
  }
}

/** A 2xx: anything else (another status, no answer) is retried. */
export function isSuccess(result: SendResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}

/** The secret, and the one a rotation replaced while its grace lasts: both sign, so either verifies. */
export function signingSecrets(webhook: { secret: string; previousSecret: string | null; previousSecretUntil: string | null }, now: number): string[] {
  const previous = webhook.previousSecret !== null && webhook.previousSecretUntil !== null && Date.parse(webhook.previousSecretUntil) > now;
  return previous ? [webhook.secret, webhook.previousSecret!] : [webhook.secret];
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
