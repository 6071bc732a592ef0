import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filePersister } from "../../src/limits/file-persister.js";
import { openMemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import type { SubjectRow } from "../../src/limits/persister.js";
import { SlotBatch } from "../../src/limits/slot-batch.js";
import { BANNED_UNTIL, DAY_SERVED, KEY_BYTES, MINUTE_SERVED, SubjectTable } from "../../src/limits/subject-table.js";

const MINUTE = 29_000_000;
const DAY = 20_000;

/** Keys the byte pages cannot hold as they are: each must still be found, saved and read back. */
const AWKWARD = [
  `key:${"x".repeat(KEY_BYTES)}`,
  "key:ünïcödé",
  'key:"quoted"',
  "key:back\\slash",
  "key:tab\there",
  "",
  "ip:😀",
];

/** A small deterministic generator, so that a failure names a sequence that can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}

describe("SubjectTable", () => {
  it("finds, adds and removes like a Map, reusing slots (10,000 subjects, 60,000 steps)", () => {
    const table = new SubjectTable();
    const model = new Map<string, number>();
    const next = random(7);
    const subjects = [...Array.from({ length: 10_000 }, (_, i) => `ip:10.${i >> 8}.${i & 255}.${i % 7}`), ...AWKWARD];
    const wrong: string[] = [];
    for (let step = 0; step < 60_000; step++) {
      const subject = subjects[Math.floor(next() * subjects.length)] as string;
      const slot = table.find(subject);
      if (slot !== (model.get(subject) ?? -1)) wrong.push(`step ${step}: ${subject} at ${slot}`);
      if (slot < 0) {
        model.set(subject, table.add(subject, MINUTE, DAY));
      } else if (next() < 0.4) {
        table.remove(slot);
        model.delete(subject);
      } else if (table.subjectAt(slot) !== subject) {
        wrong.push(`step ${step}: slot ${slot} holds ${table.subjectAt(slot)}, not ${subject}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(table.size).toBe(model.size);
    expect([...model].filter(([subject, slot]) => table.find(subject) !== slot)).toEqual([]);
    const used = [...model.values()];
    expect(new Set(used).size).toBe(used.length);
    expect(table.end).toBeLessThan(model.size + 10_000);
  });

  it("writes each row as JSON that parses back to the row, for every kind of key", () => {
    const table = new SubjectTable();
    const slots = ["ip:10.0.0.1", "key:key_0123456789abcdef", ...AWKWARD].map((subject) => table.add(subject, MINUTE, DAY));
    table.set(slots[0] as number, BANNED_UNTIL, 1_765_432_109_876);
    table.set(slots[1] as number, MINUTE_SERVED, 9_007_199_254_740_991);
    table.set(slots[2] as number, DAY_SERVED, 123_456);
    const batch = new SlotBatch(table, 16);
    for (const slot of slots) batch.add(slot);
    const text = Buffer.from(batch.json()).toString("utf8");
    expect(text.startsWith(",[")).toBe(true);
    const parsed = JSON.parse(`[${text.slice(1)}]`) as SubjectRow[];
    expect(parsed).toEqual(batch.rows());
    expect(parsed.map((row) => row[0])).toEqual(["ip:10.0.0.1", "key:key_0123456789abcdef", ...AWKWARD]);
    expect(parsed[0]?.[7]).toBe(1_765_432_109_876);
  });

  it("grows a batch's buffer for rows that do not fit and skips subjects removed since", () => {
    const table = new SubjectTable();
    const long = `key:${"é".repeat(20_000)}`;
    const slots = [table.add("ip:10.0.0.1", MINUTE, DAY), table.add(long, MINUTE, DAY), table.add("ip:10.0.0.2", MINUTE, DAY)];
    const batch = new SlotBatch(table, 4);
    for (const slot of slots) batch.add(slot);
    table.remove(slots[2] as number);
    const rows = JSON.parse(`[${Buffer.from(batch.json()).toString("utf8").slice(1)}]`) as SubjectRow[];
    expect(rows.map((row) => row[0])).toEqual(["ip:10.0.0.1", long]);
  });

  it("lists each changed slot once per save; a change after the list is taken starts the next one", () => {
    const table = new SubjectTable();
    const [a, b] = [table.add("key:a", MINUTE, DAY), table.add("key:b", MINUTE, DAY)];
    table.markChanged(a);
    table.markChanged(a);
    table.markChanged(b);
    expect([...table.takeChanged()]).toEqual([a, b]);
    expect(table.changedCount).toBe(0);
    table.markChanged(b);
    table.markChanged(b);
    expect([...table.takeChanged()]).toEqual([b]);
  });
});

describe("a limiter started from a snapshot", () => {
  it("takes the last row of a subject listed twice", async () => {
    const { MemoryRateLimiter } = await import("../../src/limits/memory-rate-limiter.js");
    const noon = Date.UTC(2025, 5, 10, 12);
    const row = (served: number): SubjectRow => ["key:a", noon / 60_000, served, 0, Math.floor(noon / 86_400_000), served, 0, 0];
    const limiter = new MemoryRateLimiter({ now: () => noon, snapshot: { version: 1, savedAt: noon, rows: [row(5), row(9)] } });
    expect(limiter.size).toBe(1);
    expect(limiter.decide("key:a", { perMinute: 60, perDay: 1_000 }).windows.map((w) => w.remaining)).toEqual([50, 990]);
  });
});

describe("the limiter's counters file with keys the byte pages cannot hold", () => {
  it("saves and restores them with their counters", async () => {
    const dir = await mkdtemp(join(tmpdir(), "petstore-table-"));
    try {
      const file = join(dir, "petstore.json.limits.json");
      const now = () => Date.UTC(2025, 5, 10, 12);
      const limits = { perMinute: 60, perDay: 1_000 };
      const first = await openMemoryRateLimiter({ persister: filePersister(file), now, warn: () => {} });
      for (const [i, subject] of AWKWARD.entries()) for (let n = 0; n <= i; n++) first.decide(subject, limits);
      await first.close();
      const second = await openMemoryRateLimiter({ persister: filePersister(file), now, warn: () => {} });
      const remaining = AWKWARD.map((subject) => second.decide(subject, limits).windows[0]?.remaining);
      expect(remaining).toEqual(AWKWARD.map((_, i) => 60 - (i + 2)));
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
