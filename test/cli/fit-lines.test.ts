// Lines fitted to a terminal's width, measured as the terminal shows them (display width).
import { stripVTControlCharacters } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { fittingSink, fitText } from "../../src/cli/output/fit-lines.js";
import { cutToWidth, displayWidth, loadDisplayWidth, padToWidth } from "../../src/cli/output/text-width.js";

beforeAll(() => loadDisplayWidth());

const widths = (text: string) => text.split("\n").map((line) => displayWidth(line));

describe("display width", () => {
  it.each([
    ["Rex", 3],
    ["服务犬", 6],
    ["🐕", 2],
    ["🐕‍🦺", 2],
    ["👨‍👩‍👧", 2],
    ["é", 1],
    ["\u001b[31mred\u001b[0m", 3],
  ])("%j takes %i columns", (text, columns) => {
    expect(displayWidth(text)).toBe(columns);
  });

  it("cuts between grapheme clusters only, never through a joined emoji, with …", () => {
    expect(cutToWidth("Rex the dog", 6)).toBe("Rex t…");
    expect(cutToWidth("服务犬的名字", 7)).toBe("服务犬…");
    expect(cutToWidth("🐕‍🦺🐕‍🦺🐕‍🦺", 5)).toBe("🐕‍🦺🐕‍🦺…");
    expect(cutToWidth("👨‍👩‍👧 family", 3)).toBe("👨‍👩‍👧…");
    expect(cutToWidth("short", 5)).toBe("short");
    for (let width = 1; width <= 12; width++) {
      const cut = cutToWidth("a🐕‍🦺b服务犬👨‍👩‍👧é", width);
      expect(displayWidth(cut)).toBeLessThanOrEqual(width);
      expect(cut).not.toContain("\uFFFD");
      expect("a🐕‍🦺b服务犬👨‍👩‍👧é".startsWith(cut.replace(/…$/, ""))).toBe(true);
    }
  });

  it("pads to a width in columns", () => {
    expect(padToWidth("服务", 6)).toBe("服务  ");
    expect(displayWidth(padToWidth("🐕‍🦺", 5))).toBe(5);
  });
});

describe("fitting lines", () => {
  it("breaks a long line at blanks, each piece within the width", () => {
    const text = "Warning: GET /pets/{id} is deprecated and will be removed on 2030-12-05; use petstore pets list.\n";
    for (const width of [40, 60, 80]) {
      const fitted = fitText(text, width);
      expect(Math.max(...widths(fitted))).toBeLessThanOrEqual(width);
      expect(fitted.replace(/\n(?!$)/g, " ")).toBe(text);
    }
  });

  it("continues an indented line indented two more, and cuts a word wider than the line", () => {
    expect(fitText("  $ petstore pets list --status available --limit 250\n", 30)).toBe("  $ petstore pets list\n    --status available --limit\n    250\n");
    expect(fitText("see https://example.com/a/very/long/path/indeed\n", 20)).toBe("see\nhttps://example.com/\na/very/long/path/ind\need\n");
  });

  it("measures CJK and emoji by the columns they take, and never splits a grapheme", () => {
    const fitted = fitText("服务犬 🐕‍🦺🐕‍🦺🐕‍🦺🐕‍🦺🐕‍🦺🐕‍🦺 服务犬服务犬\n", 10);
    expect(Math.max(...widths(fitted))).toBeLessThanOrEqual(10);
    expect(fitted).not.toContain("\uFFFD");
    expect(fitted.replace(/\n/g, "")).toBe("服务犬 🐕‍🦺🐕‍🦺🐕‍🦺🐕‍🦺🐕‍🦺🐕‍🦺 服务犬服务犬".replace(/ /g, ""));
  });

  it("leaves colour codes whole and counts them for nothing", () => {
    const fitted = fitText("\u001b[31mError:\u001b[39m the key is not valid for this server at all\n", 20);
    expect(Math.max(...widths(fitted))).toBeLessThanOrEqual(20);
    expect(stripVTControlCharacters(fitted).replace(/\n(?!$)/g, " ")).toBe("Error: the key is not valid for this server at all\n");
  });

  it("leaves a line of JSON whole: it is data", () => {
    const json = '{"code":"unauthorized","message":"the API key is not valid for this server","status":401}\n';
    expect(fitText(json, 40)).toBe(json);
  });

  it("follows a line across writes, and starts again after a carriage return", () => {
    let out = "";
    const sink = fittingSink({ write: (chunk: string) => (out += chunk) }, 20);
    sink.write("Error: ");
    sink.write("this message is long\n");
    sink.write("\r\u001b[2K[#####-----] 5/10");
    sink.write("\r\u001b[2K[##########] 10/10 done\n");
    expect(out).toBe("Error: this message\nis long\n\r\u001b[2K[#####-----] 5/10\r\u001b[2K[##########] 10/10\ndone\n");
  });
});
