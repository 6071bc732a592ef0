// The delivery engine as serve starts it: the sender over undici, the worker over the store,
// woken by every committed change (this instance's or, over PostgreSQL, any instance's).
import { performance } from "node:perf_hooks";
import type { Dispatcher } from "undici";
import { VERSION } from "../../support/package-info.js";
import { createGuardedAgent } from "../../support/ssrf/index.js";
import type { Store } from "../../store/store.js";
import { DeliveryWorker, type DeliveryObserver, type Timers } from "./delivery-worker.js";
import { autoDisable } from "./auto-disable.js";
import { DEFAULT_WEBHOOK_RETRY_FOR_MS } from "./retry-schedule.js";
import { DEFAULT_WEBHOOK_TIMEOUT_MS, WebhookSender } from "./send-webhook.js";

// Unref'd: pending retries and deadlines never keep a stopping process alive.
const REAL_TIMERS: Timers = { setTimeout: (callback, ms) => setTimeout(callback, ms).unref(), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) };

export interface WebhookSettings {
  /** How long a failing delivery is retried (serve --webhook-retry-for); 3 days by default. */
  retryForMs?: number;
  /** Per attempt; 10 s by default. */
  timeoutMs?: number;
  /** Where connections go; by default the SSRF guard's agent, which checks every address it connects to. */
  dispatcher?: Dispatcher;
  /** --webhooks-allow-private: the guard lets loopback and private addresses through (never cloud metadata). */
  allowPrivate?: boolean;
  /** How often due retries are looked for; tests shorten it. */
  pollMs?: number;
  maxInFlight?: number;
  random?: () => number;
  timers?: Timers;
  /** webhook-timestamp's clock: a receiver compares it with its own, so the real one unless a test says. */
  wallClock?: () => number;
}

export interface RunningDeliveries {
  wake(): void;
  /** Graceful: waits for the attempts under way (each ends within the timeout). */
  stop(): Promise<void>;
  /** At once: cuts the attempts under way off and records nothing more (a store thrown away). */
  abandon(): Promise<void>;
}

/**
 * Starts sending what is due; `now` is the server's clock (tests move it to cross retry delays).
 * Each observer hears of every attempt; `warn` of store failures and of endpoints disabled.
 */
export function startDeliveries(
  store: Pick<Store, "deliveries" | "events" | "webhooks">,
  settings: WebhookSettings,
  now: () => number,
  observers: readonly DeliveryObserver[] = [],
  warn: (message: string) => void = () => {},
): RunningDeliveries {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const retryForMs = settings.retryForMs ?? DEFAULT_WEBHOOK_RETRY_FOR_MS;
  const dispatcher = settings.dispatcher ?? createGuardedAgent({ allowPrivate: settings.allowPrivate ?? false, connect: { timeout: timeoutMs } });
  const sender = new WebhookSender({
    dispatcher,
    userAgent: `petstore/${VERSION}`,
    timeoutMs,
    nowSeconds: () => Math.floor((settings.wallClock ?? Date.now)() / 1000),
    // The timeout is real time, whatever clock the tests move.
    clock: { elapsedMs: () => performance.now(), ...REAL_TIMERS },
  });
  const worker = new DeliveryWorker({
    deliveries: store.deliveries,
    send: (request) => sender.send(request),
    now,
    random: settings.random ?? Math.random,
    timers: settings.timers ?? REAL_TIMERS,
    retryForMs,
    pollMs: settings.pollMs,
    maxInFlight: settings.maxInFlight,
    observer: { attempted: (...heard) => observers.forEach((observer) => observer.attempted(...heard)) },
    failedForGood: autoDisable({ webhooks: store.webhooks, retryForMs, now, log: { warn } }),
    warn,
  });
  const unsubscribe = store.events.subscribe(() => worker.wake());
  worker.start();
  return {
    wake: () => worker.wake(),
    stop: async () => {
      unsubscribe();
      await worker.stop();
      if (!settings.dispatcher) await dispatcher.close();
    },
    abandon: async () => {
      unsubscribe();
      // Marked first, so that no attempt the abort ends is recorded or reported as a receiver's failure.
      const abandoned = worker.abandon();
      sender.cutAll();
      await abandoned;
      if (!settings.dispatcher) await dispatcher.destroy();
    },
  };
}
