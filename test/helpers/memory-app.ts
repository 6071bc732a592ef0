// The app as a fetch function over the memory engines, on a fixed clock, with an admin key from
// the environment: for cases that need to reach inside (a failing store, a limiter of their own)
// or to see app.fetch's own answer. The same cases over a real listener use startTestServer.
import type { H3 } from "h3";
import type { KeyLimits } from "../../src/contract/values.js";
import { MemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import type { RateLimiter } from "../../src/limits/rate-limiter.js";
import { createApp } from "../../src/server/app.js";
import { environmentAdminKey } from "../../src/server/keys/admin-keys.js";
import { createLogger } from "../../src/server/request-log.js";
import { openMemoryStore } from "../../src/store/memory/open-memory-store.js";
import type { KeyRecord } from "../../src/store/key-store.js";
import type { PetStore } from "../../src/store/pet-store.js";
import type { Store } from "../../src/store/store.js";

export interface MemoryAppOptions {
  /** The admin secret the app accepts (PETSTORE_ADMIN_KEY). */
  adminKey: string;
  /** Wraps the real pet store (a failing one, say). */
  pets?: (real: PetStore) => PetStore;
  limiter?: (now: () => number) => RateLimiter;
  anonymousLimits?: KeyLimits;
  /** Where the server's log lines go. */
  write?: (chunk: string) => unknown;
  /** The app's clock (its limiter's too): MEMORY_APP_NOW, fixed, when absent. */
  now?: () => number;
  /** Each key's limits: 1,000 a minute and a day for every key when absent. */
  limitsOf?: (key: KeyRecord) => KeyLimits;
  /** Another engine's store (test/store/support.ts ENGINES) in place of a fresh memory one. */
  open?: () => Promise<Store>;
}

export const MEMORY_APP_NOW = Date.UTC(2026, 10, 22, 12);

/** createApp over a fresh memory store; keys get 1,000 requests a minute and a day unless `limitsOf` says. */
export async function memoryApp(options: MemoryAppOptions): Promise<{ app: H3; store: Store }> {
  const store = await (options.open ?? openMemoryStore)();
  const now = options.now ?? (() => MEMORY_APP_NOW);
  const app = createApp({
    pets: options.pets ? options.pets(store.pets) : store.pets,
    keys: store.keys,
    orders: store.orders,
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    idempotency: store.idempotency,
    limiter: options.limiter ? options.limiter(now) : new MemoryRateLimiter({ now }),
    limitsOf: options.limitsOf ?? (() => ({ perMinute: 1000, perDay: 1000 })),
    anonymousLimits: options.anonymousLimits ?? { perMinute: 60, perDay: 1000 },
    environmentAdmin: environmentAdminKey(options.adminKey, now),
    logger: createLogger({ write: (chunk: string) => (options.write?.(chunk), true) }, { quiet: true, now }),
    now,
  });
  return { app, store };
}
