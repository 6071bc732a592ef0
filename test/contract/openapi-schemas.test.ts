// The document's schemas say what the server's zod schemas say: the same bodies pass and fail.
import { describe, expect, it } from "vitest";
import { NewKeySchema, NewPetSchema } from "../../src/contract/schemas.js";
import { componentValidator } from "../helpers/conformance.js";

describe("components.schemas agree with the server's validation", () => {
  it.each([
    { name: "Rex", categoryId: 3 },
    { name: "Rex", categoryId: 3, status: "sold" },
    { name: "x".repeat(200), categoryId: Number.MAX_SAFE_INTEGER },
    {},
    { categoryId: 1 },
    { name: "", categoryId: 1 },
    { name: "x".repeat(201), categoryId: 1 },
    { name: 7, categoryId: 1 },
    { name: "a", categoryId: 0 },
    { name: "a", categoryId: 1.5 },
    { name: "a", categoryId: "1" },
    { name: "a", categoryId: 2 ** 53 },
    { name: "a", categoryId: 1, status: "lost" },
    { id: 9, name: "a", categoryId: 1 },
    [{ name: "a", categoryId: 1 }],
    null,
  ])("NewPet %j", (body) => {
    expect(componentValidator("NewPet")(body)).toBe(NewPetSchema.safeParse(body).success);
  });

  it.each([
    { plan: "free" },
    { plan: "pro", name: "ci" },
    { plan: "enterprise", perMinute: 5, perDay: 10 },
    {},
    { plan: "gold" },
    { plan: "free", name: "" },
    { plan: "free", secret: "x" },
    { plan: "enterprise", perMinute: 0, perDay: 1 },
  ])("NewKey %j", (body) => {
    expect(componentValidator("NewKey")(body)).toBe(NewKeySchema.safeParse(body).success);
  });

  it("leaves the enterprise-only rule of perMinute and perDay (a zod refinement) to the description", () => {
    expect(componentValidator("NewKey")({ plan: "pro", perMinute: 5 })).toBe(true);
    expect(NewKeySchema.safeParse({ plan: "pro", perMinute: 5 }).success).toBe(false);
  });
});
