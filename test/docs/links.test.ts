// The docs a newcomer reads: a README short enough for a quarter of an hour, every page of docs/
// one click from it, and no link (file or #anchor) that lands nowhere on GitHub.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { anchorsOf, linksOf, slugOf } from "./markdown-links.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOCS = join(ROOT, "docs");
const docsPages = readdirSync(DOCS).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`);
const PAGES = ["README.md", "CONTRIBUTING.md", ...docsPages];

const read = (page: string) => readFileSync(join(ROOT, page), "utf8");
const lineCount = (page: string) => read(page).replace(/\n$/, "").split("\n").length;
const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** What is wrong with one relative link of `page`, or undefined when it lands. */
function brokenLink(page: string, target: string): string | undefined {
  const [pathPart = "", anchor] = target.split("#", 2);
  const file = pathPart === "" ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(pathPart));
  if (relative(ROOT, file).startsWith("..")) return "points outside the repository";
  if (!existsSync(file)) return "no such file";
  if (anchor === undefined) return undefined;
  if (!file.endsWith(".md") || statSync(file).isDirectory()) return "an #anchor into a file that is not Markdown";
  return anchorsOf(readFileSync(file, "utf8")).has(decodeURIComponent(anchor)) ? undefined : "no such heading";
}

describe("the docs", () => {
  it("has the README, CONTRIBUTING.md and the docs/ pages the README promises", () => {
    for (const page of ["README.md", "CONTRIBUTING.md", "docs/cli.md", "docs/server.md", "docs/api.md", "docs/security.md", "docs/performance.md"]) {
      expect(existsSync(join(ROOT, page)), page).toBe(true);
    }
  });

  it("keeps the README at most 300 lines and docs/performance.md at most 200", () => {
    expect(lineCount("README.md")).toBeLessThanOrEqual(300);
    expect(lineCount("docs/performance.md")).toBeLessThanOrEqual(200);
  });

  it("links every docs/ page and CONTRIBUTING.md from the README", () => {
    const linked = new Set(linksOf(read("README.md")).map(({ target }) => target.split("#")[0]!.replace(/^\.\//, "")));
    const missing = [...docsPages, "CONTRIBUTING.md"].filter((page) => !linked.has(page));
    expect(missing).toEqual([]);
  });

  it("has no relative link or #anchor that lands nowhere", () => {
    const broken = PAGES.filter((page) => existsSync(join(ROOT, page))).flatMap((page) =>
      linksOf(read(page))
        .filter(({ target }) => !isExternal(target))
        .flatMap(({ target, line }) => {
          const problem = brokenLink(page, target);
          return problem === undefined ? [] : [`${page}:${line} ${target}: ${problem}`];
        }),
    );
    expect(broken).toEqual([]);
  });

  it("never points the README at a file outside the repository", () => {
    expect(read("README.md")).not.toMatch(/\.\.\/shared|\]\(\.\.\//);
  });
});

describe("the anchor checker", () => {
  it("makes GitHub's anchors from headings", () => {
    expect(slugOf("Live changes: GET /v1/events")).toBe("live-changes-get-v1events");
    expect(slugOf("For scripts: api, --json fields, --jq, import and export")).toBe("for-scripts-api---json-fields---jq-import-and-export");
    expect(slugOf("pets import <file|->")).toBe("pets-import-file-");
    expect(slugOf("Keys, plans & rate_limits")).toBe("keys-plans--rate_limits");
    const anchors = anchorsOf("# A `b`\n## A b\n```\n# not a heading\n```\n### [Linked](x.md) *it*\n");
    expect([...anchors]).toEqual(["a-b", "a-b-1", "linked-it"]);
  });

  it("finds links outside code only", () => {
    const links = linksOf("[a](x.md) `[b](y.md)` ![c](p.png \"t\")\n```\n[d](z.md)\n```\n[e](<w.md#h>)");
    expect(links.map(({ target }) => target)).toEqual(["x.md", "p.png", "w.md#h"]);
  });
});
