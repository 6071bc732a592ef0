// `petstore events` on a terminal: one readable line per event, webhook.disabled included.
import { describe, expect, it } from "vitest";
import { printEvent } from "../../src/cli/output/events.js";

describe("an event line on a terminal", () => {
  it("names the endpoint a webhook.disabled is about by id and origin, with the last error", () => {
    let written = "";
    const stream = { write: (chunk: string) => (written += chunk), isTTY: true, color: false, columns: 120 };
    const data = { id: 3, origin: "https://hooks.example", description: null, deliveryId: 17, lastError: "answered 503" };
    printEvent({ type: "webhook.disabled", id: 42, at: "2030-01-01T10:00:00.000Z", data }, stream, "UTC");
    expect(written).toBe("10:00:00  webhook.disabled  #42      webhook endpoint 3 (https://hooks.example) disabled: answered 503\n");
  });
});
