import { describe, expect, it } from "vitest";
import { canTransition, PET_STATUS_AFTER, transitionSources } from "../../src/contract/order-transitions.js";
import { ORDER_STATUSES } from "../../src/contract/values.js";

describe("the order state machine", () => {
  const allowed = ["placed->approved", "placed->cancelled", "approved->delivered", "approved->cancelled"];
  it.each(ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const)))("%s -> %s", (from, to) => {
    expect(canTransition(from, to)).toBe(allowed.includes(`${from}->${to}`));
  });

  it("knows where each status comes from, and what it does to the pet", () => {
    expect(transitionSources("cancelled")).toEqual(["placed", "approved"]);
    expect(transitionSources("placed")).toEqual([]);
    expect(PET_STATUS_AFTER).toEqual({ placed: "pending", delivered: "sold", cancelled: "available" });
  });
});
