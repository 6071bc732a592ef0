import type { DeliveryRecord } from "../delivery-store.js";
import { ENDED_BY_DISABLING } from "../delivery-store.js";
import { webhookDisabledData, type FailingEndpoint, type NewWebhookInput, type WebhookChange, type WebhookPage, type WebhookRecord, type WebhookStore } from "../webhook-store.js";
import { WEBHOOK_DISABLED_EVENT } from "../../contract/events.js";
import type { GroupCommit } from "./group-commit.js";
import type { StoreState } from "./store-state.js";

/**
 * Endpoints over the same state and group commit as the pets: each change is a line of the
 * journal. A change reads the endpoint as staged, so two PATCHes in one batch build on each other.
 */
export class IndexedWebhookStore implements WebhookStore {
  readonly #state: StoreState;
  readonly #commit: GroupCommit;
  readonly #staged = new Map<number, WebhookRecord | null>();

  constructor(state: StoreState, commit: GroupCommit) {
    this.#state = state;
    this.#commit = commit;
  }

  async create({ url, types, description, secret, at }: NewWebhookInput): Promise<WebhookRecord> {
    const instant = at.toISOString();
    const record: WebhookRecord = {
      id: this.#state.takeWebhookId(),
      url,
      types,
      description,
      enabled: true,
      secret,
      previousSecret: null,
      previousSecretUntil: null,
      createdAt: instant,
      updatedAt: instant,
    };
    await this.#stage(record.id, record, (batch) => batch.webhooks.set(record.id, record));
    return record;
  }

  async get(id: number): Promise<WebhookRecord | undefined> {
    return this.#state.webhooks.get(id);
  }

  async list({ afterId = 0, limit }: { afterId?: number; limit: number }): Promise<WebhookPage> {
    const all = this.#state.webhooks.all();
    const from = all.findIndex((record) => record.id > afterId);
    const page = from < 0 ? [] : all.slice(from, from + limit + 1);
    return { webhooks: page.slice(0, limit), hasMore: page.length > limit };
  }

  async update(id: number, change: WebhookChange, at: Date): Promise<WebhookRecord | undefined> {
    const current = this.#latest(id);
    if (!current) return undefined;
    const defined = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
    const record: WebhookRecord = { ...current, ...defined, updatedAt: at.toISOString() };
    // Disabled, its pending deliveries end: enabling it again sends nothing old unless asked.
    const ended = current.enabled && record.enabled === false ? this.#endPending(id, at) : [];
    await this.#stage(id, record, (batch) => {
      batch.webhooks.set(id, record);
      for (const delivery of ended) batch.deliveries.set(delivery.id, delivery);
    });
    return this.#state.webhooks.get(id) ?? record;
  }

  async rotateSecret(id: number, secret: string, previousUntil: Date | null, at: Date): Promise<WebhookRecord | undefined> {
    const current = this.#latest(id);
    if (!current) return undefined;
    const previous = previousUntil === null ? { previousSecret: null, previousSecretUntil: null } : { previousSecret: current.secret, previousSecretUntil: previousUntil.toISOString() };
    const record: WebhookRecord = { ...current, secret, ...previous, updatedAt: at.toISOString() };
    await this.#stage(id, record, (batch) => batch.webhooks.set(id, record));
    return this.#state.webhooks.get(id) ?? record;
  }

  async delete(id: number): Promise<boolean> {
    if (!this.#latest(id)) return false;
    await this.#stage(id, null, (batch) => {
      batch.webhooks.delete(id);
      batch.webhooksRemoved.add(id);
    });
    return true;
  }

  async disableFailing(id: number, failing: FailingEndpoint): Promise<WebhookRecord | undefined> {
    const current = this.#latest(id);
    const since = failing.since.getTime();
    if (!current?.enabled || Date.parse(current.updatedAt) > since || this.#succeededAfter(id, since)) return undefined;
    const record: WebhookRecord = { ...current, enabled: false, updatedAt: failing.at.toISOString() };
    const ended = this.#endPending(id, failing.at);
    await this.#stage(id, record, (batch) => {
      batch.webhooks.set(id, record);
      for (const delivery of ended) batch.deliveries.set(delivery.id, delivery);
      batch.webhookEvents.push({ type: WEBHOOK_DISABLED_EVENT, data: webhookDisabledData(record, failing) });
    });
    return this.#state.webhooks.get(id) ?? record;
  }

  /** Whether a delivery of the endpoint succeeded after `since` (ms): the kept ones, at most 1,000 finished. */
  #succeededAfter(webhookId: number, since: number): boolean {
    const table = this.#state.deliveries;
    return table.recordsOf(webhookId).some((delivery) => {
      return delivery.status === "succeeded" && delivery.lastAttemptAt !== null && Date.parse(delivery.lastAttemptAt) > since;
    });
  }

  #endPending(webhookId: number, at: Date): DeliveryRecord[] {
    const table = this.#state.deliveries;
    return table
      .pendingOf(webhookId)
      .map((delivery) => ({ ...delivery, status: "failed", nextAttemptAt: null, lastError: ENDED_BY_DISABLING, lastAttemptAt: delivery.lastAttemptAt ?? at.toISOString() }));
  }

  /** The endpoint as the next batch will leave it: staged changes first, then the committed one. */
  #latest(id: number): WebhookRecord | undefined {
    const staged = this.#staged.get(id);
    return staged === null ? undefined : (staged ?? this.#state.webhooks.get(id));
  }

  async #stage(id: number, record: WebhookRecord | null, fill: Parameters<GroupCommit["stage"]>[0]): Promise<void> {
    this.#staged.set(id, record);
    try {
      await this.#commit.stage(fill);
    } finally {
      if (this.#staged.get(id) === record) this.#staged.delete(id);
    }
  }
}
