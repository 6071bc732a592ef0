import type { AttemptOutcome, ClaimQuery, ClaimedDelivery, DeliveryQuery, DeliveryRecord, DeliveryStore } from "../delivery-store.js";
import type { GroupCommit } from "./group-commit.js";
import { pendingDelivery, type StoreState } from "./store-state.js";

/**
 * Deliveries over the same state and group commit as the pets. One process holds the file (its
 * lock), so a claim's lease lives in memory: after a crash every pending delivery is due again.
 */
export class IndexedDeliveryStore implements DeliveryStore {
  readonly #state: StoreState;
  readonly #commit: GroupCommit;
  /**
   * Delivery id to the end of its lease (ms), in the order the leases were taken: with one lease
   * length and a clock that moves on, the order they end in. Only the deliveries in flight are
   * here; an entry in the due order per claim would stay a whole lease (thousands a second, kept
   * for minutes) after its attempt was recorded.
   */
  readonly #leases = new Map<number, number>();

  constructor(state: StoreState, commit: GroupCommit) {
    this.#state = state;
    this.#commit = commit;
  }

  /**
   * Due deliveries, taken in turn from each endpoint that is not skipped (one each, round after
   * round), so that one endpoint's backlog neither fills a claim nor costs the others a walk.
   */
  async claim({ now, limit, skipWebhooks, leaseMs }: ClaimQuery): Promise<ClaimedDelivery[]> {
    const at = now.getTime();
    this.#requeueEndedLeases(at);
    const table = this.#state.deliveries;
    const skip = new Set(skipWebhooks);
    let turn = table.webhooksWithPending().filter((id) => !skip.has(id));
    const claimed: ClaimedDelivery[] = [];
    while (turn.length > 0 && claimed.length < limit) {
      const next: number[] = [];
      for (const webhookId of turn) {
        if (claimed.length >= limit) break;
        const item = this.#claimOne(webhookId, at, leaseMs);
        if (!item) continue;
        claimed.push(item);
        next.push(webhookId);
      }
      turn = next;
    }
    return claimed;
  }

  #claimOne(webhookId: number, at: number, leaseMs: number): ClaimedDelivery | undefined {
    const table = this.#state.deliveries;
    const webhook = this.#state.webhooks.get(webhookId);
    if (!webhook) return undefined;
    for (let delivery = table.takeDue(webhookId, at); delivery; delivery = table.takeDue(webhookId, at)) {
      // Claimed already and not yet recorded: the end of its lease puts it back in the due order.
      if ((this.#leases.get(delivery.id) ?? 0) > at) continue;
      // Deleted first: a Map keeps a key where it was first set, and the order is the order of the ends.
      this.#leases.delete(delivery.id);
      this.#leases.set(delivery.id, at + leaseMs);
      return { delivery, webhook };
    }
    return undefined;
  }

  /**
   * Deliveries whose lease ended with no attempt recorded (the record failed, the attempt was cut
   * off) are due again. Stops at the first live lease: those after it end later.
   */
  #requeueEndedLeases(at: number): void {
    const table = this.#state.deliveries;
    for (const [id, end] of this.#leases) {
      if (end > at) return;
      this.#leases.delete(id);
      const delivery = table.get(id);
      if (delivery?.status === "pending") table.dueAgainAt(delivery, end);
    }
  }

  async record(id: number, outcome: AttemptOutcome): Promise<DeliveryRecord | undefined> {
    const current = this.#state.deliveries.get(id);
    if (!current) {
      this.#leases.delete(id);
      return undefined;
    }
    const updated = attempted(current, outcome);
    // When this throws, the lease stays: once it ends the delivery is due again (sent at least once).
    await this.#commit.stage((batch) => batch.deliveries.set(id, updated));
    // Only once the attempt is durable: until then the state still says pending.
    this.#leases.delete(id);
    return this.#state.deliveries.get(id);
  }

  async get(webhookId: number, id: number): Promise<DeliveryRecord | undefined> {
    const delivery = this.#state.deliveries.get(id);
    return delivery?.webhookId === webhookId ? delivery : undefined;
  }

  async list({ webhookId, status, beforeId = Number.MAX_SAFE_INTEGER, limit }: DeliveryQuery) {
    const ids = this.#state.deliveries.idsOf(webhookId);
    const deliveries: DeliveryRecord[] = [];
    for (let at = ids.length - 1; at >= 0 && deliveries.length <= limit; at--) {
      // Holes (finished deliveries dropped beyond the bound) are skipped.
      const delivery = ids[at]! < beforeId ? this.#state.deliveries.get(ids[at]!) : undefined;
      if (delivery && (status === undefined || delivery.status === status)) deliveries.push(delivery);
    }
    return { deliveries: deliveries.slice(0, limit), hasMore: deliveries.length > limit };
  }

  async retryNow(webhookId: number, id: number, now: Date): Promise<DeliveryRecord | undefined> {
    const current = await this.get(webhookId, id);
    if (!current) return undefined;
    const again: DeliveryRecord = { ...current, status: "pending", nextAttemptAt: now.toISOString() };
    await this.#commit.stage((batch) => batch.deliveries.set(id, again));
    return this.#state.deliveries.get(id);
  }

  async createTest(webhookId: number, payload: string, now: Date): Promise<DeliveryRecord | undefined> {
    if (!this.#state.webhooks.get(webhookId)) return undefined;
    const record = pendingDelivery(this.#state.takeDeliveryId(), webhookId, null, "webhook.test", payload, now.toISOString());
    await this.#commit.stage((batch) => batch.deliveries.set(record.id, record));
    return this.#state.deliveries.get(record.id);
  }

  async pendingCount(): Promise<number> {
    return this.#state.deliveries.pendingCount;
  }
}

/** The delivery after one attempt: succeeded, failed for good, or pending until its next attempt. */
export function attempted(delivery: DeliveryRecord, outcome: AttemptOutcome): DeliveryRecord {
  // Ended meanwhile (its endpoint disabled): an attempt already under way does not revive it.
  const ended = delivery.status === "failed" && !outcome.succeeded;
  const status = outcome.succeeded ? "succeeded" : ended || outcome.nextAttemptAt === null ? "failed" : "pending";
  return {
    ...delivery,
    status,
    attempts: delivery.attempts + 1,
    nextAttemptAt: status === "pending" ? outcome.nextAttemptAt!.toISOString() : null,
    lastAttemptAt: outcome.at.toISOString(),
    lastStatusCode: outcome.statusCode,
    lastError: outcome.error,
    lastResponse: outcome.response,
    lastDurationMs: outcome.durationMs,
  };
}
