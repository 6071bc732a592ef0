// The Webhooks tag: endpoints that are POSTed every change, admin only. Handlers: src/server/routes/webhooks.ts.
import { componentRef } from "../components.js";
import { pageCursor, pageLimit, positiveId } from "../parameters.js";
import type { RouteEntry } from "../route-types.js";
import { MERGE_PATCH_MEDIA_TYPES } from "./shared.js";
import { CreatedWebhookSchema, NewWebhookSchema, WebhookPatchSchema, WebhookSchema, WebhooksSchema } from "../webhook-schemas.js";

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
] as const satisfies readonly RouteEntry[];
