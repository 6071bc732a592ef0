// The Webhooks tag's handlers (the operations of src/contract/operations/webhooks.ts).
import { randomBytes } from "node:crypto";
import type { H3Event } from "h3";
import { API_PREFIX, LIST_LIMIT_DEFAULT } from "../../contract/constants.js";
import type { WEBHOOK_ROUTES } from "../../contract/operations/webhooks.js";
import { MERGE_PATCH_MEDIA_TYPES, type InputOf, type Route } from "../../contract/routes.js";
import { describeIssue } from "../../contract/validation.js";
import {
  DEFAULT_SECRET_GRACE_SECONDS,
  NewWebhookSchema,
  RotateWebhookSecretSchema,
  WEBHOOK_TEST_EVENT,
  WebhookPatchSchema,
  type CreatedWebhook,
  type Webhook,
  type WebhookDelivery,
} from "../../contract/webhook-schemas.js";
import { webhookPayload } from "../../contract/webhook-events.js";
import type { DeliveryRecord, DeliveryStore } from "../../store/delivery-store.js";
import { newWebhookSecret } from "../../support/standard-webhooks.js";
import type { WebhookRecord, WebhookStore } from "../../store/webhook-store.js";
import { invalidBody, notFound } from "../errors.js";
import { readJsonBody } from "../internal/json-body.js";
import { nextPageLink } from "../internal/next-page.js";
import { encodeCursor } from "../../contract/cursor.js";
import { linkBase } from "../internal/public-url.js";
import type { HandlersFor } from "./register.js";

export interface WebhookRoutesDeps {
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  /** A delivery is due now: the engine looks at once rather than at its next poll. */
  wakeDeliveries?: () => void;
  now: () => number;
  /**
   * Why an endpoint URL's host may not be called (a private or loopback address, a name that
   * resolves to one), or undefined when it may: checked at create and update, and again at
   * every connection by the delivery's own dispatcher. Absent: every host may.
   */
  refusedHost?: (url: URL) => Promise<string | undefined>;
}

/** The handler of each operation of the Webhooks tag; the guard lets only admin keys through. */
export function webhookHandlers(deps: WebhookRoutesDeps): HandlersFor<(typeof WEBHOOK_ROUTES)[number]> {
  return {
    listWebhooks: (event, input) => listWebhooks(event, input, deps.webhooks),
    createWebhook: (event) => createWebhook(event, deps),
    getWebhook: async (_event, { path }) => toWebhook(await known(deps.webhooks, path.webhookId)),
    updateWebhook: (event, input) => updateWebhook(event, input, deps),
    deleteWebhook: async (event, { path }) => {
      if (!(await deps.webhooks.delete(path.webhookId))) throw unknownWebhook(path.webhookId);
      event.res.status = 204;
      return null;
    },
    listWebhookDeliveries: (event, input) => listDeliveries(event, input, deps),
    retryWebhookDelivery: async (_event, { path }) => {
      const delivery = await deps.deliveries.retryNow(path.webhookId, path.deliveryId, new Date(deps.now()));
      if (!delivery) throw notFound(`no delivery ${path.deliveryId} of webhook endpoint ${path.webhookId}`);
      deps.wakeDeliveries?.();
      return toDelivery(delivery);
    },
    testWebhook: async (_event, { path }) => {
      const at = new Date(deps.now());
      const payload = webhookPayload(null, WEBHOOK_TEST_EVENT, at.toISOString(), { webhookId: path.webhookId });
      const delivery = await deps.deliveries.createTest(path.webhookId, payload, at);
      if (!delivery) throw unknownWebhook(path.webhookId);
      deps.wakeDeliveries?.();
      return toDelivery(delivery);
    },
    rotateWebhookSecret: (event, input) => rotateSecret(event, input, deps),
  };
}

async function listDeliveries(event: H3Event, { path, query }: InputOf<Route<"listWebhookDeliveries">>, deps: WebhookRoutesDeps): Promise<WebhookDelivery[]> {
  await known(deps.webhooks, path.webhookId);
  const { limit, status, cursor: beforeId } = query;
  const page = await deps.deliveries.list({ webhookId: path.webhookId, status, beforeId, limit: limit ?? LIST_LIMIT_DEFAULT });
  const last = page.deliveries.at(-1);
  if (page.hasMore && last) event.res.headers.set("link", nextPageLink(linkBase(event) + event.url.pathname, { limit, status }, encodeCursor(last.id)));
  return page.deliveries.map(toDelivery);
}

/** rotateWebhookSecret: a new secret, shown once; the old one signs beside it during the grace. */
async function rotateSecret(event: H3Event, { path }: InputOf<Route<"rotateWebhookSecret">>, deps: WebhookRoutesDeps): Promise<CreatedWebhook> {
  const parsed = RotateWebhookSecretSchema.safeParse((await readJsonBody(event)) ?? {});
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const grace = parsed.data.graceSeconds ?? DEFAULT_SECRET_GRACE_SECONDS;
  const now = deps.now();
  const secret = newWebhookSecret(randomBytes);
  const rotated = await deps.webhooks.rotateSecret(path.webhookId, secret, grace > 0 ? new Date(now + grace * 1000) : null, new Date(now));
  if (!rotated) throw unknownWebhook(path.webhookId);
  return { ...toWebhook(rotated), secret };
}

/** A delivery as the API shows it: not its body, which GET /v1/events carries. */
function toDelivery(record: DeliveryRecord): WebhookDelivery {
  const { payload: _payload, lastError, ...shown } = record;
  // Recorded only for the types of WEBHOOK_EVENT_TYPES and webhook.test (the engines write no other).
  return { ...shown, type: shown.type as WebhookDelivery["type"], lastError: lastError === null ? null : lastError.slice(0, 256) };
}

async function listWebhooks(event: H3Event, { query }: InputOf<Route<"listWebhooks">>, webhooks: WebhookStore): Promise<Webhook[]> {
  const { limit, cursor: afterId } = query;
  const page = await webhooks.list({ afterId, limit: limit ?? LIST_LIMIT_DEFAULT });
  const last = page.webhooks.at(-1);
  if (page.hasMore && last) event.res.headers.set("link", nextPageLink(linkBase(event) + event.url.pathname, { limit }, encodeCursor(last.id)));
  return page.webhooks.map(toWebhook);
}

/** createWebhook: POST /v1/webhooks; the secret is in this answer and nowhere else. */
async function createWebhook(event: H3Event, deps: WebhookRoutesDeps): Promise<CreatedWebhook> {
  const parsed = NewWebhookSchema.safeParse(await readJsonBody(event));
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const { url, types = [], description } = parsed.data;
  await checkHost(url, deps);
  const secret = newWebhookSecret(randomBytes);
  const record = await deps.webhooks.create({ url, types: unique(types), description: description ?? null, secret, at: new Date(deps.now()) });
  event.res.status = 201;
  event.res.headers.set("location", `${API_PREFIX}/webhooks/${record.id}`);
  return { ...toWebhook(record), secret };
}

/** updateWebhook: PATCH /v1/webhooks/{id}, a merge patch of url, types, description and enabled. */
async function updateWebhook(event: H3Event, { path }: InputOf<Route<"updateWebhook">>, deps: WebhookRoutesDeps): Promise<Webhook> {
  const parsed = WebhookPatchSchema.safeParse(await readJsonBody(event, MERGE_PATCH_MEDIA_TYPES));
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const change = parsed.data;
  if (Object.keys(change).length === 0) throw invalidBody("nothing to update: send at least one of url, types, description, enabled");
  if (change.url !== undefined) await checkHost(change.url, deps);
  const types = change.types && unique(change.types);
  const updated = await deps.webhooks.update(path.webhookId, { ...change, types }, new Date(deps.now()));
  if (!updated) throw unknownWebhook(path.webhookId);
  return toWebhook(updated);
}

async function checkHost(url: string, deps: WebhookRoutesDeps): Promise<void> {
  const refused = await deps.refusedHost?.(new URL(url));
  if (refused !== undefined) throw invalidBody(`url: ${refused}`);
}

async function known(webhooks: WebhookStore, id: number): Promise<WebhookRecord> {
  const record = await webhooks.get(id);
  if (!record) throw unknownWebhook(id);
  return record;
}

const unknownWebhook = (id: number) => notFound(`no webhook endpoint with id ${id}`);

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** The endpoint as the API shows it: never its secret. */
export function toWebhook(record: WebhookRecord): Webhook {
  const { id, url, types, description, enabled, createdAt, updatedAt } = record;
  return { id, url, types, description, enabled, createdAt, updatedAt };
}
