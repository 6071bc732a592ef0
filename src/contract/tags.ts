// The document's tags, each named once: a route entry's `doc.tag` is one of these keys, and the
// document lists them in this order.
export const TAGS = {
  pets: { name: "Pets", description: "The animals." },
  store: {
    name: "Store",
    description: "Orders and the inventory. Beta: it may still change within v1; every answer says so with `X-API-Stability: beta`.",
  },
  keys: { name: "Keys", description: "API keys; admin keys only." },
  webhooks: { name: "Webhooks", description: "Endpoints told of every change by a signed POST; admin keys only." },
  meta: { name: "Meta", description: "About the API itself." },
} as const;

export type Tag = keyof typeof TAGS;
