import { describe, expect, it } from "vitest";
import { linkWithRel } from "../../src/cli/internal/link-header.js";

const base = "http://127.0.0.1:3000/v1/pets?limit=2";

describe("linkWithRel", () => {
  it.each([
    ['<http://127.0.0.1:3000/v1/pets?limit=2&cursor=abc>; rel="next"', "http://127.0.0.1:3000/v1/pets?limit=2&cursor=abc"],
    ["</v1/pets?cursor=abc>; rel=next", "http://127.0.0.1:3000/v1/pets?cursor=abc"],
    ['<http://h/v1/pets>; rel="successor-version", <http://h/v1/pets?cursor=x>; rel="next"', "http://h/v1/pets?cursor=x"],
    ['<http://h/a>; title="a, b"; rel="prev next"', "http://h/a"],
    ['<http://h/v1/pets>; rel="successor-version"', undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%s → %s", (header, next) => {
    expect(linkWithRel(header, "next", base)).toBe(next);
  });
});
