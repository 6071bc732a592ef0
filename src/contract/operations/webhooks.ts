// The Webhooks tag: endpoints that are POSTed every change, admin only. Handlers: src/server/routes/webhooks.ts.
import { componentRef } from "../components.js";
import { pageCursor, pageLimit, positiveId, statusFilter } from "../parameters.js";
import type { RouteEntry } from "../route-types.js";
import { MERGE_PATCH_MEDIA_TYPES } from "./shared.js";
import {
  CreatedWebhookSchema,
  DeliveryStatusSchema,
  NewWebhookSchema,
  RotateWebhookSecretSchema,
  WebhookDeliveriesSchema,
  WebhookDeliverySchema,
  WebhookPatchSchema,
  WebhookSchema,
  WebhooksSchema,
} from "../webhook-schemas.js";

const WEBHOOK_ID = { webhookId: positiveId().describe("The endpoint's id.") };

export const WEBHOOK_ROUTES = [
  {
    operationId: "listWebhooks",
    method: "GET",
    path: "/webhooks",
    access: "admin",
    stability: "stable",
    request: {
      query: {
        limit: pageLimit().describe("Maximum number of endpoints to return."),
        cursor: pageCursor().describe("Opaque: take it from the `Link` of the previous page."),
      },
    },
    doc: {
      tag: "webhooks",
      summary: "List webhook endpoints (admin), a page at a time",
      description: "Ordered by id, without their secrets. When more follow, `Link` carries the URL of the next page.",
      success: { status: 200, description: "A page of endpoints.", schema: componentRef(WebhooksSchema), headers: ["Link-Next"] },
    },
  },
  {
    operationId: "createWebhook",
    method: "POST",
    path: "/webhooks",
    access: "admin",
    stability: "stable",
    request: { body: NewWebhookSchema },
    doc: {
      tag: "webhooks",
      summary: "Add a webhook endpoint (admin)",
      description:
        "Every change from now on whose type the endpoint asks for is POSTed to its URL, signed as Standard Webhooks 1.0 says " +
        "with the secret in this answer, which is shown nowhere else.",
      success: { status: 201, description: "The endpoint, with its signing secret.", schema: componentRef(CreatedWebhookSchema), headers: ["Location"] },
    },
  },
  {
    operationId: "getWebhook",
    method: "GET",
    path: "/webhooks/{webhookId}",
    access: "admin",
    stability: "stable",
    request: { path: WEBHOOK_ID },
    doc: {
      tag: "webhooks",
      summary: "Get a webhook endpoint (admin)",
      description: "Its URL, types and state; the secret was shown once, when it was added (or its last rotation).",
      success: { status: 200, description: "The endpoint, without its secret.", schema: componentRef(WebhookSchema) },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "updateWebhook",
    method: "PATCH",
    path: "/webhooks/{webhookId}",
    access: "admin",
    stability: "stable",
    request: { path: WEBHOOK_ID, body: WebhookPatchSchema, mediaTypes: MERGE_PATCH_MEDIA_TYPES },
    doc: {
      tag: "webhooks",
      summary: "Change a webhook endpoint (admin)",
      description: "Its URL, types, description, or whether it is enabled. Enabling it again sends nothing it missed.",
      success: { status: 200, description: "The endpoint as changed.", schema: componentRef(WebhookSchema) },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "deleteWebhook",
    method: "DELETE",
    path: "/webhooks/{webhookId}",
    access: "admin",
    stability: "stable",
    request: { path: WEBHOOK_ID },
    doc: {
      tag: "webhooks",
      summary: "Remove a webhook endpoint (admin)",
      description: "Nothing more is sent to it, pending deliveries included.",
      success: { status: 204, description: "Removed." },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "listWebhookDeliveries",
    method: "GET",
    path: "/webhooks/{webhookId}/deliveries",
    access: "admin",
    stability: "stable",
    request: {
      path: WEBHOOK_ID,
      query: {
        limit: pageLimit().describe("Maximum number of deliveries to return."),
        status: statusFilter(DeliveryStatusSchema).describe("Only deliveries with this status."),
        cursor: pageCursor().describe("Opaque: take it from the `Link` of the previous page."),
      },
    },
    doc: {
      tag: "webhooks",
      summary: "List an endpoint's deliveries (admin), newest first",
      description: "Pending ones and the newest 1,000 finished ones; each with its attempts, last answer or error, and next attempt.",
      success: { status: 200, description: "A page of deliveries.", schema: componentRef(WebhookDeliveriesSchema), headers: ["Link-Next"] },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "retryWebhookDelivery",
    method: "POST",
    path: "/webhooks/{webhookId}/deliveries/{deliveryId}/retry",
    access: "admin",
    stability: "stable",
    request: { path: { ...WEBHOOK_ID, deliveryId: positiveId().describe("The delivery's id.") } },
    doc: {
      tag: "webhooks",
      summary: "Send a delivery again now (admin)",
      description: "Whatever its status: it becomes pending and due at once, with the same webhook-id.",
      success: { status: 200, description: "Due now.", schema: componentRef(WebhookDeliverySchema) },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "testWebhook",
    method: "POST",
    path: "/webhooks/{webhookId}/test",
    access: "admin",
    stability: "stable",
    request: { path: WEBHOOK_ID },
    doc: {
      tag: "webhooks",
      summary: "Send a webhook.test event to this endpoint only (admin)",
      description: "Recorded and retried like any delivery, even while the endpoint is disabled.",
      success: { status: 200, description: "The delivery, due now.", schema: componentRef(WebhookDeliverySchema) },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "rotateWebhookSecret",
    method: "POST",
    path: "/webhooks/{webhookId}/rotate-secret",
    access: "admin",
    stability: "stable",
    request: { path: WEBHOOK_ID, body: RotateWebhookSecretSchema },
    doc: {
      tag: "webhooks",
      summary: "Give an endpoint a new signing secret (admin)",
      description:
        "The new secret is in this answer and nowhere else. The old one keeps signing beside it (two signatures in " +
        "webhook-signature) for graceSeconds, default 24 h, so a receiver can switch without losing a delivery.",
      success: { status: 200, description: "The endpoint, with its new secret.", schema: componentRef(CreatedWebhookSchema) },
      errors: ["NotFound"],
    },
  },
] as const satisfies readonly RouteEntry[];
