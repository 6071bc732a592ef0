// The worlds of `serve --ephemeral`, each a memory store with the seed and a memory limiter: nothing
// here touches the disk (no lock, no counters file, no journal).
import { randomBytes } from "node:crypto";
import { MemoryRateLimiter } from "../../limits/memory-rate-limiter.js";
import { memoryStoresOf } from "../../store/memory/open-memory-store.js";
import { MemorySpentTickets } from "../../store/spent-tickets.js";
import { EventTickets } from "../events/event-tickets.js";
import { appOver, type AppSettings, type ServeShared } from "../serve-app.js";
import type { Seed } from "../seed/seed-data.js";
import { deliveryMetrics } from "../webhooks/delivery-metrics.js";
import { receiverHealth } from "../webhooks/receiver-health.js";
import { startDeliveries, type RunningDeliveries, type WebhookSettings } from "../webhooks/start-deliveries.js";
import { EphemeralWorlds } from "./ephemeral-worlds.js";

export type EphemeralShared = Omit<ServeShared, "tickets" | "admin" | "options"> & {
  options: AppSettings & { seed?: Seed; ticketSecret?: string; webhooks?: WebhookSettings };
};

/** The first world, and how each reset builds the next from the same seed. */
export async function openEphemeralWorlds(partial: EphemeralShared): Promise<EphemeralWorlds> {
  const { options, now, initial, logger, metrics } = partial;
  // One secret for the whole run: a ticket drawn before a reset is refused after it only because its key may be gone.
  const tickets = new EventTickets(options.ticketSecret ?? randomBytes(32), new MemorySpentTickets());
  const holder: { worlds?: EphemeralWorlds } = {};
  const shared: ServeShared = { ...partial, tickets, admin: { reset: () => holder.worlds!.reset() } };
  // Frozen once and shared by every world: the store freezes the records it is given and never
  // changes them, so a copy per reset would only cost its time (a change would throw). Its pets are
  // indexed once; each world's store starts from a copy of that index.
  const seed = options.seed && deepFreeze(structuredClone(options.seed.data));
  const openStore = memoryStoresOf(seed, now);
  holder.worlds = await EphemeralWorlds.open(async () => {
    const store = openStore();
    const limiter = new MemoryRateLimiter({ ban: initial.ban, now, warn: (message) => logger.warn(message) });
    // A throwaway server's receivers are the test suite's own, on loopback: see private-targets.ts.
    const settings = { ...options.webhooks, allowPrivate: true };
    // The app is built with the world (most of a start's cost after the store); the deliveries
    // start only with it, and nothing reaches its app before that.
    let deliveries: RunningDeliveries | undefined;
    const webhooks = shared.webhooks && { ...shared.webhooks, wake: () => deliveries?.wake() };
    const { app, streams } = appOver({ store, limiter }, { ...shared, webhooks });
    return {
      start: () => {
        const observers = [receiverHealth(logger, now), ...(metrics ? [deliveryMetrics(metrics)] : [])];
        deliveries = startDeliveries(store, settings, now, observers, (message) => logger.warn(message));
        return { store, limiter, streams, deliveries, app };
      },
      discard: async () => {
        await Promise.allSettled([limiter.close(), store.close()]);
      },
    };
  });
  return holder.worlds;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
