// Which 404s say the base URL is wrong: those for a path every petstore server answers.
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../src/contract/routes.js";
import { ALWAYS_ANSWERED_PATHS, isWrongBaseUrl, missingVersionHint, pathUnderBase } from "../../src/cli/internal/base-url-check.js";

describe("isWrongBaseUrl", () => {
  it.each([
    ["http://h:3000", "http://h:3000/pets", true],
    ["http://h:3000", "http://h:3000/keys/current", true],
    ["http://h:3000/", "http://h:3000/openapi.json", true],
    ["http://h:3000/api/v1", "http://h:3000/api/v1/store/orders?limit=5", true],
    ["http://h:3000", "http://h:3000/pets/5", false],
    ["http://h:3000", "http://h:3000/keys/key_abcdefghijklmnop", false],
    ["http://h:3000", "http://h:3000/events", false],
    ["http://h:3000/v1", "http://h:3000/v1/store/orders/3", false],
  ])("a 404 under %s for %s: %s", (baseUrl, url, wrong) => {
    expect(isWrongBaseUrl(404, baseUrl, url)).toBe(wrong);
    expect(isWrongBaseUrl(400, baseUrl, url)).toBe(false);
  });

  it("finds the path under the base URL, and none on another origin or outside its path", () => {
    expect(pathUnderBase("http://h:3000/v1", "http://h:3000/v1/pets?x=1")).toBe("/pets");
    expect(pathUnderBase("http://h:3000/v1", "http://h:3000/v2/pets")).toBeUndefined();
    expect(pathUnderBase("http://h:3000/v1", "http://other:3000/v1/pets")).toBeUndefined();
  });

  it("lists only paths the contract has, without a parameter", () => {
    const fixed = new Set(ROUTES.filter((route) => !("outsideApi" in route) && !route.path.includes("{")).map((route) => route.path));
    for (const path of ALWAYS_ANSWERED_PATHS) expect(fixed).toContain(path);
  });
});

describe("missingVersionHint", () => {
  it("names the URL with /v1 when the base URL lacks it, and nothing when it has it", () => {
    expect(missingVersionHint("http://h:3000")).toBe("The base URL http://h:3000 does not end with /v1, where the API is: try http://h:3000/v1.");
    expect(missingVersionHint("http://h:3000/v1")).toBeUndefined();
    expect(missingVersionHint("http://h:3000/v1/")).toBeUndefined();
  });
});
