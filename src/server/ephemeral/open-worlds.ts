// The worlds of `serve --ephemeral`, each a memory store with the seed and a memory limiter: nothing
// here touches the disk (no lock, no counters file, no journal).
import { randomBytes } from "node:crypto";
import { MemoryRateLimiter } from "../../limits/memory-rate-limiter.js";
import { openMemoryStore } from "../../store/memory/open-memory-store.js";
import { MemorySpentTickets } from "../../store/spent-tickets.js";
import { EventTickets } from "../events/event-tickets.js";
import { appOver, type AppSettings, type ServeShared } from "../serve-app.js";
import type { Seed } from "../seed/seed-data.js";
import { receiverHealth } from "../webhooks/receiver-health.js";
import { startDeliveries, type WebhookSettings } from "../webhooks/start-deliveries.js";
import { EphemeralWorlds } from "./ephemeral-worlds.js";

export type EphemeralShared = Omit<ServeShared, "tickets" | "admin" | "options"> & {
  options: AppSettings & { seed?: Seed; ticketSecret?: string; webhooks?: WebhookSettings };
};

/** The first world, and how each reset builds the next from the same seed. */
export async function openEphemeralWorlds(partial: EphemeralShared): Promise<EphemeralWorlds> {
  const { options, now, initial, logger } = partial;
  // One secret for the whole run: a ticket drawn before a reset is refused after it only because its key may be gone.
  const tickets = new EventTickets(options.ticketSecret ?? randomBytes(32), new MemorySpentTickets());
  const holder: { worlds?: EphemeralWorlds } = {};
  const shared: ServeShared = { ...partial, tickets, admin: { reset: () => holder.worlds!.reset() } };
  const seed = options.seed?.data;
  holder.worlds = await EphemeralWorlds.open(async () => {
    // A copy each time: the store freezes and indexes what it is given.
    const store = await openMemoryStore(now, seed ? structuredClone(seed) : undefined);
    const limiter = new MemoryRateLimiter({ ban: initial.ban, now, warn: (message) => logger.warn(message) });
    // A throwaway server's receivers are the test suite's own, on loopback: see private-targets.ts.
    const settings = { ...options.webhooks, allowPrivate: true };
    const deliveries = startDeliveries(store, settings, now, receiverHealth(logger, now), (message) => logger.warn(message));
    const webhooks = shared.webhooks && { ...shared.webhooks, wake: () => deliveries.wake() };
    const { app, streams } = appOver({ store, limiter }, { ...shared, webhooks });
    return { store, limiter, streams, deliveries, app };
  });
  return holder.worlds;
}
