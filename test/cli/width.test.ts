// At 60, 80 and 120 columns, with CJK, emoji and joined-emoji names: every line the CLI writes on
// a terminal fits it, measured as the terminal shows it (display width), tables keep their
// columns aligned, and a name cut to fit is cut between graphemes (never a U+FFFD).
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Command } from "commander";
import { createProgram, main } from "../../src/cli/main.js";
import { printEvent } from "../../src/cli/output/events.js";
import { createImportProgress } from "../../src/cli/output/import-progress.js";
import { displayWidth, loadDisplayWidth } from "../../src/cli/output/text-width.js";
import { GET_PET_DEPRECATION, inMemoryApi, type Script, type ScriptedAnswer } from "./helpers/in-memory-api.js";
import { createTestContext, memoryStateStore } from "./helpers/test-context.js";

const BASE_URL = "http://127.0.0.1:3999/v1";
const WIDTHS = [60, 80, 120];
const NAMES = [
  "🐕‍🦺 服务犬 the service dog of the whole neighbourhood, Rex",
  "👨‍👩‍👧 家族の犬ポチ、とても長い名前の犬です",
  "Zoë 🐈‍⬛ the cat who sleeps all day on the warm windowsill",
  "Rex",
  "犬".repeat(60),
];
const pet = (id: number) => ({ id, name: NAMES[(id - 1) % NAMES.length]!, categoryId: id, status: id % 2 ? "available" : "sold" });
const KEY = {
  id: "key_0123456789abcdef", prefix: "ps_abc123", plan: "enterprise", name: "deploys of the 服务犬 team, production 🐕‍🦺", admin: true,
  scopes: ["pets:read", "pets:write", "orders:read", "orders:write", "events:read"],
  limits: { perMinute: 5000, perDay: 2000000 }, createdAt: "2030-01-01T03:04:05.000Z", revokedAt: null, lastUsedAt: "2030-01-01T19:00:00.000Z",
};
const CURRENT = {
  key: KEY,
  usage: {
    minute: { limit: 5000, remaining: 4998, resetAt: "2030-01-01T20:15:00.000Z" },
    day: { limit: 2000000, remaining: 1999990, resetAt: "2030-01-02T00:00:00.000Z" },
    bannedUntil: null,
  },
  server: { version: "0.1.0" },
};
const ORDER = { id: 1, petId: 7, status: "placed", createdAt: "2030-01-01T10:00:00.000Z", updatedAt: "2030-01-01T10:00:00.000Z" };

/** A page of pets, with a next link: `pets list` says more exist. */
const petPage: ScriptedAnswer = { status: 200, headers: { link: `<${BASE_URL}/pets?limit=30&cursor=30>; rel="next"` }, body: Array.from({ length: 30 }, (_, i) => pet(i + 1)) };

async function onTerminal(argv: string[], columns: number, script: Script = [{ status: 500, body: { code: "internal_error", message: "x", status: 500 } }]) {
  const api = inMemoryApi(script);
  const test = createTestContext({
    api,
    columns,
    isStdoutTTY: true,
    isStderrTTY: true,
    now: () => Date.UTC(2030, 0, 1, 20, 14, 18),
    state: memoryStateStore(),
    env: { PETSTORE_BASE_URL: BASE_URL, PETSTORE_API_KEY: "ps_test", PETSTORE_CONFIG: "/nonexistent/c.json", PETSTORE_PAGER: "" },
  });
  const code = await main(argv, test.ctx);
  return { code, stdout: test.stdout(), stderr: test.stderr() };
}

/** The lines as the terminal shows them: a carriage return starts a line again. */
const shownLines = (text: string) => text.split("\n").flatMap((line) => line.split("\r"));
function expectFits(text: string, columns: number): void {
  for (const line of shownLines(text)) expect(displayWidth(line), JSON.stringify(stripVTControlCharacters(line))).toBeLessThanOrEqual(columns);
  expect(text).not.toContain("\uFFFD");
}

const savedTz = process.env.TZ;
beforeAll(async () => {
  process.env.TZ = "UTC";
  await loadDisplayWidth();
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe.each(WIDTHS)("at %i columns", (columns) => {
  it("pets list: the table and the hint fit, statuses aligned, names cut between graphemes", async () => {
    const { code, stdout, stderr } = await onTerminal(["pets", "list"], columns, [petPage]);
    expect(code).toBe(0);
    expectFits(stdout, columns);
    expectFits(stderr, columns);
    expect(stripVTControlCharacters(stderr).replace(/\n(?!$)/g, " ")).toBe("Showing the first 30 pets; more exist: raise --limit, or use --all.\n");
    const lines = stripVTControlCharacters(stdout).trimEnd().split("\n");
    // The STATUS column starts at one display column on every line, whatever the names hold.
    const statusColumn = (line: string) => displayWidth(line.slice(0, line.search(/(STATUS|available|sold)$/)));
    expect(new Set(lines.map(statusColumn)).size).toBe(1);
    // Each name shown is the start of the real one, whole graphemes, "…" where it was cut.
    for (const [index, line] of lines.slice(1).entries()) {
      const name = pet(index + 1).name;
      const shown = line.replace(/^\d+\s+/, "").replace(/\s+\d+\s+(available|sold)$/, "");
      if (shown.endsWith("…")) expect(name.startsWith(shown.slice(0, -1))).toBe(true);
      else expect(shown).toBe(name);
    }
    if (columns <= 80) expect(stdout).toContain("…");
  });

  it("status: every line fits, the long key line continued under its value", async () => {
    const { code, stdout } = await onTerminal(["status"], columns, [{ status: 200, body: CURRENT }]);
    expect(code).toBe(0);
    expectFits(stdout, columns);
    for (const line of stdout.trimEnd().split("\n")) expect(line).toMatch(/^(\S+ +| {9})\S/);
  });

  it("pets get: the deprecation notice is one line at 80 columns and more, and fits at 60", async () => {
    const { code, stderr } = await onTerminal(["pets", "get", "1"], columns, [{ status: 200, headers: GET_PET_DEPRECATION, body: pet(1) }]);
    expect(code).toBe(0);
    expectFits(stderr, columns);
    expect(stripVTControlCharacters(stderr).replace(/\n(?!$)/g, " ")).toBe("Warning: `pets get` (GET /pets/{id}) is deprecated; it goes away on 2030-12-05.\n");
    if (columns >= 80) expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("orders list: the table and the beta notice, one line at 80 columns and more", async () => {
    const { code, stdout, stderr } = await onTerminal(["orders", "list"], columns, [{ status: 200, headers: { "x-api-stability": "beta" }, body: [ORDER] }]);
    expect(code).toBe(0);
    expectFits(stdout, columns);
    expectFits(stderr, columns);
    expect(stripVTControlCharacters(stderr).replace(/\n(?!$)/g, " ")).toBe("Notice: orders and inventory are beta; their answers may change within v1.\n");
    if (columns >= 80) expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("keys list: the table fits, the name cut first", async () => {
    const { code, stdout } = await onTerminal(["keys", "list"], columns, [{ status: 200, body: [KEY, { ...KEY, id: "key_fedcba9876543210", name: "犬".repeat(40), admin: false }] }]);
    expect(code).toBe(0);
    expectFits(stdout, columns);
  });

  it("an error and its hint fit, broken at blanks", async () => {
    const message = "the server refused this request because the 服务犬 named in it is not one it knows about at all, anywhere";
    const { code, stderr } = await onTerminal(["pets", "list"], columns, [{ status: 400, body: { code: "invalid_parameter", message, status: 400 } }]);
    expect(code).toBe(1);
    expectFits(stderr, columns);
    expect(stripVTControlCharacters(stderr)).toContain("Error: the server refused");
  });

  it("the import progress line fits, bar narrowed or left out, so redrawing it leaves nothing behind", () => {
    let written = "";
    let now = 0;
    const stream = { write: (chunk: string) => (written += chunk), isTTY: true, color: false, columns };
    const progress = createImportProgress(stream, 3000, () => now);
    now = 20_000;
    progress.advance(1234);
    progress.waiting(52_000, "the key's quota for this minute is spent; it resets at 20:15 (in 52 s)");
    progress.advance(1500);
    progress.done();
    for (const drawn of written.split("\r")) expect(displayWidth(drawn)).toBeLessThan(columns);
    expect(written).toContain("1234/3000");
  });

  it("events: one line per event, a long name cut between graphemes", () => {
    let written = "";
    const stream = { write: (chunk: string) => (written += chunk), isTTY: true, color: true, columns };
    for (const [index, name] of NAMES.entries()) {
      printEvent({ type: "pet.updated", id: index + 1, at: "2030-01-01T10:00:00.000Z", data: { id: index + 1, name, categoryId: 1, status: "sold" } }, stream, "UTC");
    }
    expect(written.trimEnd().split("\n")).toHaveLength(NAMES.length);
    expectFits(written, columns);
  });

  it("every command's help fits", async () => {
    const program = createProgram(createTestContext().ctx, () => {}, ["completion"]);
    const walk = (command: Command, path: string[]): string[][] => [path, ...command.commands.filter((sub) => !sub.name().startsWith("__")).flatMap((sub) => walk(sub, [...path, sub.name()]))];
    for (const path of walk(program, [])) {
      const { code, stdout } = await onTerminal([...path, "--help"], columns);
      expect(code).toBe(0);
      for (const line of stdout.split("\n")) expect(displayWidth(line), `petstore ${path.join(" ")} --help: ${line}`).toBeLessThanOrEqual(columns);
    }
  });
});
