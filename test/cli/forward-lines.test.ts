// What `events --forward-to` prints per delivery: a line for people on a terminal, a JSON record
// per line for scripts; and its messages on stderr.
import { describe, expect, it } from "vitest";
import type { DeliveryReport } from "../../src/cli/internal/forward-queue.js";
import { forwardBanner, printDelivery, undeliveredSummary } from "../../src/cli/output/forward-lines.js";
import type { StoreEvent } from "../../src/contract/events.js";

const event: StoreEvent = { type: "pet.updated", id: 42, at: "2026-03-04T05:06:07.000Z", data: { id: 3, name: "Rex" } };
const at = Date.parse("2026-03-04T05:06:09.250Z");
const report = (change: Partial<DeliveryReport>): DeliveryReport => ({ event, webhookId: "evt_42", attempt: 1, at, ms: 12, status: 200, outcome: "delivered", ...change });

function printed(delivery: DeliveryReport, isTTY: boolean): string {
  let text = "";
  printDelivery(delivery, { write: (chunk) => (text += chunk), isTTY, color: false }, "UTC");
  return text;
}

describe("a delivery on a terminal", () => {
  it.each([
    [report({}), "05:06:09  pet.updated    #42      200  12 ms\n"],
    [report({ status: 503, outcome: "retrying", retryInMs: 1_500, attempt: 2 }), "05:06:09  pet.updated    #42      503  12 ms  retry 2 in 1.5 s\n"],
    [report({ status: undefined, error: "connection refused by http://localhost:8080", outcome: "retrying", retryInMs: 750 }), "05:06:09  pet.updated    #42      ---  12 ms  connection refused by http://localhost:8080  retry 1 in 0.8 s\n"],
    [report({ status: 404, outcome: "failed" }), "05:06:09  pet.updated    #42      404  12 ms  not retried\n"],
  ])("%#: %j", (delivery, line) => {
    expect(printed(delivery, true)).toBe(line);
  });
});

describe("a delivery piped", () => {
  it("is one JSON object per line: time, type, event and webhook id, attempt, status, ms, outcome", () => {
    expect(JSON.parse(printed(report({}), false))).toEqual({
      time: "2026-03-04T05:06:09.250Z",
      type: "pet.updated",
      eventId: 42,
      webhookId: "evt_42",
      attempt: 1,
      status: 200,
      ms: 12,
      outcome: "delivered",
    });
  });

  it("says why there was no answer (status null) and when the next attempt is", () => {
    const line = printed(report({ status: undefined, error: "no answer from http://localhost:8080 within 10000 ms", outcome: "retrying", retryInMs: 2_000 }), false);
    expect(line.endsWith("}\n")).toBe(true);
    expect(JSON.parse(line)).toMatchObject({ status: null, error: "no answer from http://localhost:8080 within 10000 ms", outcome: "retrying", retryInMs: 2_000 });
  });
});

describe("messages on stderr", () => {
  it("shows a secret made for this run, never one that was given", () => {
    expect(forwardBanner("http://localhost:8080/hook", "whsec_abc=")).toBe("Forwarding events to http://localhost:8080/hook (Ctrl-C to quit)\nWebhook signing secret: whsec_abc=\n");
    expect(forwardBanner("http://localhost:8080/hook", undefined)).not.toMatch(/whsec_/);
  });

  it("says what was left undelivered, and the --since that sends it", () => {
    const ids = (...list: number[]) => list.map((id) => ({ ...event, id }));
    expect(undeliveredSummary([])).toBe("");
    expect(undeliveredSummary(ids(7))).toBe("Stopped: event 7 was not delivered; to send it, run again with --since 6.\n");
    expect(undeliveredSummary(ids(7, 9, 12))).toBe("Stopped: 3 events (7 to 12) were not delivered; to send them, run again with --since 6.\n");
  });
});
