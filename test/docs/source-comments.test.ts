import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Figures go stale with the next run and issue numbers mean nothing to a reader of the code:
// both live in docs/performance.md and in the commit history, never in a source comment.
const ROOT = join(import.meta.dirname, "..", "..");
const STALE = [
  { rule: "an issue number", pattern: /\bissue\s*#?\d+/i },
  { rule: "a bench scenario", pattern: /\bscenario\s+\d+/i },
  { rule: "a timing in microseconds", pattern: /\d\s*µs\b/ },
  { rule: "a percentage of a profile", pattern: /\d+(\.\d+)?\s*%\s+of\b/i },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Comment lines: `//` to the end of a line, and the lines of block comments. */
function commentLines(text: string): Array<{ line: number; text: string }> {
  const found: Array<{ line: number; text: string }> = [];
  let inBlock = false;
  text.split("\n").forEach((line, index) => {
    const trimmed = line.trim();
    if (inBlock || trimmed.startsWith("/*")) {
      found.push({ line: index + 1, text: trimmed });
      inBlock = !trimmed.includes("*/");
      return;
    }
    const slashes = line.indexOf("// ");
    if (slashes !== -1) found.push({ line: index + 1, text: line.slice(slashes) });
  });
  return found;
}

describe("source comments", () => {
  const files = [...sourceFiles(join(ROOT, "src")), ...sourceFiles(join(ROOT, "bin")), join(ROOT, "scripts", "build.mjs")];

  it("finds the sources it checks", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it("carry no benchmark figure or issue number", () => {
    const offences = files.flatMap((file) =>
      commentLines(readFileSync(file, "utf8")).flatMap(({ line, text }) =>
        STALE.filter(({ pattern }) => pattern.test(text)).map(({ rule }) => `${relative(ROOT, file)}:${line}: ${rule}: ${text}`),
      ),
    );
    expect(offences).toEqual([]);
  });

  it("would catch one", () => {
    const lines = commentLines("const a = 1; // cost 3 µs in bench scenario 1 (issue 20)\n/**\n * 8% of the profile\n */");
    const caught = lines.filter(({ text }) => STALE.some(({ pattern }) => pattern.test(text)));
    expect(caught.map(({ line }) => line)).toEqual([1, 3]);
  });
});
