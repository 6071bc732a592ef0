// Cursors: each order's cursor reads back as the place it was made from, the longest a name can
// make still fits the bound the parameter enforces, and nothing but our own encoding is read.
import { describe, expect, it } from "vitest";
import { decodeCursor, decodePetCursor, encodeCursor, encodePetCursor } from "../../src/contract/cursor.js";
import { CURSOR_MAX_LENGTH, PET_CURSOR_MAX_LENGTH } from "../../src/contract/limits.js";
import { foldName } from "../../src/contract/name-search.js";

describe("pet cursors", () => {
  it.each([
    ["id", 7, "rex", { sort: "id", afterId: 7 }],
    ["-id", 7, "rex", { sort: "-id", afterId: 7 }],
    ["name", 7, "émile", { sort: "name", afterId: 7, afterName: "émile" }],
    ["-name", Number.MAX_SAFE_INTEGER, "a:b\n\0", { sort: "-name", afterId: Number.MAX_SAFE_INTEGER, afterName: "a:b\n\0" }],
  ] as const)("sort=%s reads back as the place it was made from", (sort, id, name, place) => {
    expect(decodePetCursor(encodePetCursor(sort, id, name))).toEqual(place);
  });

  it("an id cursor is what listings without sort have always written; other orders are no id cursor", () => {
    expect(encodePetCursor("id", 42, "x")).toBe(encodeCursor(42));
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(decodeCursor(encodePetCursor("-id", 42, "x"))).toBeUndefined();
    expect(decodeCursor(encodePetCursor("name", 4, "x"))).toBeUndefined();
  });

  it("the longest folded name of 200 characters fits the bound; the bound is enforced", () => {
    const name = foldName("\u{1d160}".repeat(200));
    expect(Buffer.byteLength(name)).toBe(2400);
    const cursor = encodePetCursor("-name", Number.MAX_SAFE_INTEGER, name);
    expect(cursor.length).toBe(PET_CURSOR_MAX_LENGTH);
    expect(decodePetCursor(cursor)?.afterName).toBe(name);
    expect(decodePetCursor(`${cursor}A`)).toBeUndefined();
    expect(decodeCursor(encodeCursor(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(encodeCursor(Number.MAX_SAFE_INTEGER).length).toBeLessThanOrEqual(CURSOR_MAX_LENGTH);
  });

  it.each([
    ["a name order without a name", Buffer.from("n7").toString("base64url")],
    ["an id order with a name", Buffer.from("p7:rex").toString("base64url")],
    ["an empty name", Buffer.from("n7:").toString("base64url")],
    ["id 0", Buffer.from("p0").toString("base64url")],
    ["an id past 2^53", Buffer.from("p9007199254740993").toString("base64url")],
    ["another mark", Buffer.from("x7").toString("base64url")],
    ["bytes that are not UTF-8", Buffer.from([0x6e, 0x37, 0x3a, 0xff]).toString("base64url")],
    ["a non-canonical ending", "cDF"],
    ["not base64url", "cD=="],
  ])("refuses %s", (_case, cursor) => {
    expect(decodePetCursor(cursor)).toBeUndefined();
  });
});
