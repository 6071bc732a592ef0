import { stripVTControlCharacters } from "node:util";
import { Chalk } from "chalk";
import stringWidth from "string-width";
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedKey, KeyView, Pet } from "../../src/contract/values.js";
import { printCreatedKey, printKeys } from "../../src/cli/output/keys.js";
import { printPet, printPets } from "../../src/cli/output/pets.js";
import { labelled } from "../../src/cli/output/notice.js";
import { createProgress } from "../../src/cli/output/progress.js";
import { stdoutOf, type OutStream } from "../../src/cli/output/stream.js";
import { fittedWidths, keptColumns, renderTable } from "../../src/cli/output/table.js";
import { loadDisplayWidth } from "../../src/cli/output/text-width.js";
import { createTestContext } from "./helpers/test-context.js";

// The printers measure text as a terminal shows it once main() has loaded the measure; here, directly.
beforeAll(() => loadDisplayWidth());

const pets: Pet[] = [
  { id: 1, name: "Rex", categoryId: 3, status: "available" },
  { id: 12, name: "Tom\tCat", categoryId: 4, status: "sold" },
];

function buffer(isTTY: boolean, color = isTTY): OutStream & { text(): string } {
  let text = "";
  return { write: (chunk: string) => (text += chunk), isTTY, color, text: () => text };
}

const ESC = "\u001b[";

describe("printPets", () => {
  it("prints tab-separated lines without header or colour when not a TTY", () => {
    const out = buffer(false);
    printPets(pets, out, { json: false });
    expect(out.text()).toBe("1\tRex\t3\tavailable\n12\tTom Cat\t4\tsold\n");
  });

  it("prints a table with a header and coloured statuses on a TTY", () => {
    const out = buffer(true, true);
    printPets(pets, out, { json: false });
    expect(out.text()).toContain(`${ESC}32mavailable${ESC}39m`);
    expect(out.text()).toContain(`${ESC}31msold${ESC}39m`);
    expect(out.text()).toContain(`${ESC}1mID${ESC}22m`);
  });

  it("prints the same table without escape codes when colour is off", () => {
    const out = buffer(true, false);
    printPets(pets, out, { json: false });
    expect(out.text()).toBe(
      ["ID  NAME     CATEGORY  STATUS", "1   Rex      3         available", "12  Tom Cat  4         sold", ""].join("\n"),
    );
  });

  it("prints a JSON array with --json, TTY or not", () => {
    for (const isTTY of [true, false]) {
      const out = buffer(isTTY);
      printPets(pets, out, { json: true });
      expect(JSON.parse(out.text())).toEqual(pets);
      expect(out.text()).not.toContain(ESC);
    }
  });

  it("prints nothing for an empty list except [] with --json", () => {
    for (const isTTY of [true, false]) {
      const out = buffer(isTTY);
      printPets([], out, { json: false });
      expect(out.text()).toBe("");
    }
    const out = buffer(false);
    printPets([], out, { json: true });
    expect(out.text()).toBe("[]\n");
  });
});

describe("printPet", () => {
  it("prints the Pet object with --json, a TSV line otherwise", () => {
    const json = buffer(false);
    printPet(pets[0]!, json, { json: true });
    expect(JSON.parse(json.text())).toEqual(pets[0]);
    const tsv = buffer(false);
    printPet(pets[0]!, tsv, { json: false });
    expect(tsv.text()).toBe("1\tRex\t3\tavailable\n");
  });
});

const ALL_SCOPES: KeyView["scopes"] = ["pets:read", "pets:write", "orders:read", "orders:write", "events:read"];
const keys: KeyView[] = [
  {
    id: "key_1", prefix: "ps_abc", plan: "pro", name: "ci", admin: false, scopes: ALL_SCOPES, limits: { perMinute: 300, perDay: 10000 },
    createdAt: "2030-01-02T03:04:05.000Z", revokedAt: null, lastUsedAt: "2030-01-03T00:00:00.000Z",
  },
  {
    id: "key_2", prefix: "ps_def", plan: "free", name: null, admin: false, scopes: ALL_SCOPES, limits: { perMinute: 60, perDay: 1000 },
    createdAt: "2030-01-02T03:04:05.000Z", revokedAt: "2030-01-04T00:00:00.000Z", lastUsedAt: null,
  },
];
const readOnly: KeyView = { ...keys[0]!, id: "key_3", name: "dashboard", scopes: ["pets:read", "events:read"] };

describe("printKeys", () => {
  it("prints id prefix plan name perMinute perDay admin createdAt lastUsedAt revokedAt expiresAt scopes when not a TTY", () => {
    const out = buffer(false);
    printKeys([...keys, readOnly], out, { json: false });
    const all = "pets:read,pets:write,orders:read,orders:write,events:read";
    expect(out.text()).toBe(
      `key_1\tps_abc\tpro\tci\t300\t10000\tfalse\t2030-01-02T03:04:05.000Z\t2030-01-03T00:00:00.000Z\t\t\t${all}\n` +
        `key_2\tps_def\tfree\t\t60\t1000\tfalse\t2030-01-02T03:04:05.000Z\t\t2030-01-04T00:00:00.000Z\t\t${all}\n` +
        "key_3\tps_abc\tpro\tdashboard\t300\t10000\tfalse\t2030-01-02T03:04:05.000Z\t2030-01-03T00:00:00.000Z\t\t\tpets:read,events:read\n",
    );
  });

  it("adds a SCOPES column on a TTY only when some key can do less than everything: 'all' or its scopes", () => {
    const out = buffer(true, false);
    printKeys([keys[0]!, readOnly], out, { json: false, timeZone: "UTC" });
    const [head, first, second] = out.text().split("\n");
    expect(head?.split(/\s{2,}/)).toEqual(["ID", "PREFIX", "PLAN", "NAME", "PER MINUTE", "PER DAY", "CREATED", "LAST USED", "SCOPES", "STATE"]);
    expect(first).toMatch(/^key_1 .* 2030-01-03 00:00 UTC\s+all\s+active$/);
    expect(second).toMatch(/^key_3 .* 2030-01-03 00:00 UTC\s+pets:read,events:read\s+active$/);
  });

  it("never cuts the scopes to fit a narrow terminal: they are shown whole, or left out after everything but id, plan, state", () => {
    for (const [columns, shown] of [[80, true], [50, false]] as const) {
      const out = { ...buffer(true, false), columns };
      printKeys([keys[0]!, readOnly], out, { json: false, timeZone: "UTC" });
      const lines = out.text().trimEnd().split("\n");
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
      expect(out.text()).not.toMatch(/pets:re[a-z]*…|events:re[a-z]*…/);
      expect(out.text().includes("pets:read,events:read")).toBe(shown);
      if (shown) expect(lines[0]?.split(/\s{2,}/)).toEqual(["ID", "PLAN", "NAME", "LAST USED", "SCOPES", "STATE"]);
    }
  });

  it("prints a table on a TTY", () => {
    const out = buffer(true, false);
    printKeys(keys, out, { json: false, timeZone: "UTC" });
    const [head, first, second] = out.text().split("\n");
    expect(head?.split(/\s{2,}/)).toEqual(["ID", "PREFIX", "PLAN", "NAME", "PER MINUTE", "PER DAY", "CREATED", "LAST USED", "STATE"]);
    expect(first).toMatch(/^key_1\s+ps_abc\s+pro\s+ci\s+300\s+10000\s+2030-01-02 03:04 UTC\s+2030-01-03 00:00 UTC\s+active$/);
    expect(second).toMatch(/^key_2\s+ps_def\s+free\s+60\s+1000\s+2030-01-02 03:04 UTC\s+never\s+revoked$/);
  });

  it("shows a person local time with its zone, while scripts keep ISO 8601 UTC", () => {
    const table = buffer(true, false);
    printKeys(keys, table, { json: false, timeZone: "America/New_York" });
    expect(table.text()).toContain("2030-01-01 22:04 EST");
    const tsv = buffer(false);
    printKeys(keys, tsv, { json: false, timeZone: "America/New_York" });
    expect(tsv.text()).toContain("\t2030-01-02T03:04:05.000Z\t");
    const json = buffer(true, false);
    printKeys(keys, json, { json: true, timeZone: "America/New_York" });
    expect(json.text()).toContain('"createdAt": "2030-01-02T03:04:05.000Z"');
  });

  it("cuts the name first and leaves the creation time out rather than cutting a time to fit the terminal", () => {
    const out = { ...buffer(true, false), columns: 80 };
    const wide = keys.map((key) => ({ ...key, name: "a name far too long to fit in any reasonable terminal width" }));
    printKeys(wide, out, { json: false, timeZone: "UTC" });
    const lines = out.text().trimEnd().split("\n");
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^ID {5}PREFIX {2}PLAN {2}NAME +PER MINUTE {2}LAST USED {13}STATE$/);
    expect(lines[1]).toMatch(/^key_1 {2}ps_abc {2}pro {3}a name far too [a-z ]*… +300 +2030-01-03 00:00 UTC {2}active$/);
  });
});

describe("printCreatedKey", () => {
  const created: CreatedKey = {
    id: "key_9", key: "ps_secret_value_123", prefix: "ps_secr", plan: "pro", name: "ci", scopes: ALL_SCOPES,
    limits: { perMinute: 300, perDay: 10000 }, createdAt: "2030-01-02T03:04:05.000Z",
  };

  it("says which scopes a key that cannot do everything has", () => {
    const err = buffer(false);
    printCreatedKey({ ...created, scopes: ["pets:read", "events:read"] }, buffer(false), err, { json: false });
    expect(err.text()).toContain('Created pro key key_9 "ci" (ps_secr…, 300/min, 10000/day, only pets:read,events:read).\n');
  });

  it("puts the secret alone on stdout and the summary and warning on stderr", () => {
    for (const isTTY of [true, false]) {
      const out = buffer(isTTY, false);
      const err = buffer(isTTY, false);
      printCreatedKey(created, out, err, { json: false });
      expect(out.text()).toBe("ps_secret_value_123\n");
      expect(err.text()).toBe(
        'Created pro key key_9 "ci" (ps_secr…, 300/min, 10000/day).\nWarning: save the secret now: it is not shown again.\n',
      );
    }
  });

  it("prints the whole object with --json, and still warns on stderr", () => {
    const out = buffer(false);
    const err = buffer(false);
    printCreatedKey(created, out, err, { json: true });
    expect(JSON.parse(out.text())).toEqual(created);
    expect(err.text()).toContain("it is not shown again");
  });
});

describe("createProgress", () => {
  it("redraws one line on a TTY and clears it when done", () => {
    const err = buffer(true);
    const progress = createProgress(err);
    progress.update("Fetched 100 pets");
    progress.update("Fetched 200 pets");
    progress.done();
    expect(err.text()).toBe(`\r${ESC}2KFetched 100 pets\r${ESC}2KFetched 200 pets\r${ESC}2K`);
  });

  it("writes nothing when the stream is not a TTY", () => {
    const err = buffer(false);
    const progress = createProgress(err);
    progress.update("Fetched 100 pets");
    progress.done();
    expect(err.text()).toBe("");
  });
});

describe("stdoutOf", () => {
  it.each([
    { isStdoutTTY: true, mode: "auto", color: true },
    { isStdoutTTY: false, mode: "auto", color: false },
    { isStdoutTTY: true, mode: "never", color: false },
    { isStdoutTTY: false, mode: "always", color: true },
  ] as const)("colour follows --color: %j", ({ isStdoutTTY, mode, color }) => {
    const { ctx } = createTestContext({ isStdoutTTY });
    expect(stdoutOf(ctx, { color: mode })).toMatchObject({ isTTY: isStdoutTTY, color });
  });
});

describe("labelled: errors, warnings and notices look alike", () => {
  it.each(["Error", "Warning", "Notice"] as const)("%s: the label coloured only when the stream is", (label) => {
    expect(labelled(label, "text", { color: false })).toBe(`${label}: text\n`);
    expect(labelled(label, "text", { color: true })).toMatch(new RegExp(`^(\\x1b\\[[0-9;]+m)+${label}:(\\x1b\\[[0-9;]+m)+ text\\n$`));
  });
});

describe("renderTable: fits the terminal, cutting with … rather than wrapping", () => {
  const head = ["ID", "NAME", "CATEGORY", "STATUS"];
  const long = "Sir Reginald Fluffington the Third of Barkshire";
  const rows = [["1", long, "3", "available"], ["22", "Rex", "1", "sold"]];
  const plain = new Chalk({ level: 0 });

  it("leaves a table that fits as it is", () => {
    expect(renderTable(head, rows, plain, { width: 200, shrinkOrder: [1] })).toBe(renderTable(head, rows, plain));
  });

  it("cuts the name column first, every line within the width", () => {
    const text = renderTable(head, rows, plain, { width: 40, shrinkOrder: [1, 2] });
    const lines = text.trimEnd().split("\n");
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(40);
    expect(lines[1]).toMatch(/^1 {3}Sir Reginald F… {2}3 {9}available$/);
    expect(lines[2]).toMatch(/^22 {2}Rex\s+1\s+sold$/);
    expect(text).not.toContain("Barkshire");
  });

  it("counts what is seen, not colour codes, and keeps the colour of what is left", () => {
    const color = new Chalk({ level: 1 });
    const coloured = rows.map(([id = "", name = "", category = "", status = ""]) => [id, name, category, color.green(status)]);
    const lines = renderTable(head, coloured, color, { width: 40, shrinkOrder: [1, 2] }).trimEnd().split("\n");
    for (const line of lines) expect([...stripVTControlCharacters(line)].length).toBeLessThanOrEqual(40);
    expect(lines[1]).toContain(color.green("available"));
  });

  it("fits CJK and emoji names by display width: a table fitted to 30 columns takes 30, not 39", () => {
    // 12 and 11 characters but 24 and 22 columns: counted by characters, the table seemed to fit.
    const names = ["服务犬的名字很长很长很长", "黒猫のクロ、とても長い", "🐕‍🦺 服务犬", "Rex"];
    const wide = names.map((name, index) => [String(index + 1), name, "available"]);
    const lines = renderTable(["ID", "NAME", "STATUS"], wide, plain, { width: 30, shrinkOrder: [1] }).trimEnd().split("\n");
    // string-width is the measure a terminal applies; the header ends with the shorter "STATUS".
    expect(lines.map((line) => stringWidth(line))).toEqual([27, 30, 30, 30, 30]);
    expect(lines.map((line) => stringWidth(line.slice(0, line.search(/(STATUS|available)$/))))).toEqual([21, 21, 21, 21, 21]);
    expect(lines.join("\n")).not.toContain("\uFFFD");
    expect(lines[1]).toMatch(/^1 {3}服务犬的名字很… {2}available$/);
    expect(lines[2]).toMatch(/^2 {3}黒猫のクロ、と… {2}available$/);
  });

  it("never cuts a column below its header or 4 characters", () => {
    expect(fittedWidths(head, rows, 10, [1, 2])).toEqual([2, 4, 8, 9]);
  });

  it("leaves columns out in dropOrder when cutting to the floors is not enough, the name kept readable", () => {
    // 2 + 12 (readable name) + 8 + 9 and three gaps of 2 = 37: CATEGORY goes at 36.
    expect(keptColumns(head, rows, 37, [1], [2, 3])).toEqual([0, 1, 2, 3]);
    expect(keptColumns(head, rows, 36, [1], [2, 3])).toEqual([0, 1, 3]);
    const text = renderTable(head, rows, plain, { width: 30, shrinkOrder: [1], dropOrder: [2] });
    const lines = text.trimEnd().split("\n");
    expect(lines[0]?.split(/\s{2,}/)).toEqual(["ID", "NAME", "STATUS"]);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(30);
    expect(lines[1]).toMatch(/^1 {3}Sir Reginald F… {2}available$/);
    expect(renderTable(head, rows, plain, { width: 200, shrinkOrder: [1], dropOrder: [2] })).toBe(renderTable(head, rows, plain));
  });
});
