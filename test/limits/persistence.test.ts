import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { KeyLimits } from "../../src/contract/values.js";
import { changesPathOf, CorruptLimitsFileError, filePersister } from "../../src/limits/file-persister.js";
import { openMemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import { MemoryPersister, rowBatch, type LimitsPersister, type RowBatches, type Snapshot, type SubjectRow } from "../../src/limits/persister.js";

const NOON = Date.UTC(2025, 5, 10, 12, 0, 0);
const FREE: KeyLimits = { perMinute: 60, perDay: 1_000 };
const ROOMY: KeyLimits = { perMinute: 1_000, perDay: 10_000 };
const BAN = { threshold: 1, durationSeconds: 900 };

let dir: string;
let file: string;
let changes: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "petstore-limits-"));
  file = join(dir, "petstore.json.limits.json");
  changes = changesPathOf(file);
});

afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

/** A limiter over the file at `file`, with its own clock and collected warnings. */
async function open(t: number, persister: LimitsPersister = filePersister(file)) {
  const clock = { t };
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const limiter = await openMemoryRateLimiter({ now: () => clock.t, ban: BAN, persister, warn });
  return { clock, limiter, warnings };
}

/** A row of `subject` at NOON's windows with `served` requests served in both. */
const row = (subject: string, served: number): SubjectRow => [subject, NOON / 60_000, served, 0, Math.floor(NOON / 86_400_000), served, 0, 0];

async function* batches(...lists: SubjectRow[][]): RowBatches {
  for (const list of lists) yield rowBatch(list);
}

const remaining = (decision: { windows: Array<{ remaining: number }> }) => decision.windows.map((w) => w.remaining);

describe("filePersister", () => {
  it("loads nothing from a missing file", async () => {
    await expect(filePersister(file).load()).resolves.toBeUndefined();
  });

  it("writes atomically with mode 0600 and reads back what it wrote", async () => {
    const snapshot: Snapshot = { version: 1, savedAt: NOON, rows: [["key:a", 1, 2, 3, 4, 5, 6, 0]] };
    const persister = filePersister(file);
    await persister.rewrite(batches(snapshot.rows), NOON);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["petstore.json.limits.json"]);
    await expect(filePersister(file).load()).resolves.toEqual(snapshot);
  });

  it("appends changes with mode 0600; a later row of a subject replaces the earlier one", async () => {
    const persister = filePersister(file);
    await persister.load();
    await persister.rewrite(batches([row("key:a", 1), row("key:b", 2)]), NOON);
    await persister.append(batches([row("key:a", 5)], [row("key:c", 1)]), NOON + 1_000);
    await persister.append(batches([row("key:a", 6)]), NOON + 2_000);
    expect((await stat(changes)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["petstore.json.limits.json", "petstore.json.limits.log"]);
    const loaded = await filePersister(file).load();
    expect(loaded).toEqual({ version: 1, savedAt: NOON + 2_000, rows: [row("key:a", 6), row("key:b", 2), row("key:c", 1)] });
  });

  it("a rewrite empties the changes file", async () => {
    const persister = filePersister(file);
    await persister.load();
    await persister.rewrite(batches([row("key:a", 1)]), NOON);
    await persister.append(batches([row("key:a", 2)]), NOON + 1_000);
    await persister.rewrite(batches([row("key:a", 3)]), NOON + 2_000);
    expect(await readFile(changes, "utf8")).toBe("");
    expect((await filePersister(file).load())?.rows).toEqual([row("key:a", 3)]);
  });

  it("cuts off a torn last change (a crash in mid-append) and appends cleanly after it", async () => {
    const persister = filePersister(file);
    await persister.load();
    await persister.rewrite(batches([row("key:a", 1)]), NOON);
    await persister.append(batches([row("key:a", 2)]), NOON + 1_000);
    const whole = await readFile(changes, "utf8");
    await writeFile(changes, `${whole}{"generation":1,"savedAt":1,"rows":[["key:a",1,9`);

    const reopened = filePersister(file);
    expect((await reopened.load())?.rows).toEqual([row("key:a", 2)]);
    expect(await readFile(changes, "utf8")).toBe(whole);
    await reopened.append(batches([row("key:b", 7)]), NOON + 3_000);
    expect((await filePersister(file).load())?.rows).toEqual([row("key:a", 2), row("key:b", 7)]);
  });

  it("ignores changes of an older generation (a crash between a rewrite and emptying the changes)", async () => {
    const persister = filePersister(file);
    await persister.load();
    await persister.rewrite(batches([row("key:a", 1)]), NOON);
    await persister.append(batches([row("key:a", 2)]), NOON + 1_000);
    const stale = await readFile(changes, "utf8");
    await persister.rewrite(batches([row("key:a", 3)]), NOON + 2_000);
    await writeFile(changes, stale);
    expect((await filePersister(file).load())?.rows).toEqual([row("key:a", 3)]);
  });

  it("reports a corrupt change that is not the last line, naming the line", async () => {
    await writeFile(changes, 'garbage\n{"generation":0,"savedAt":1,"rows":[]}\n');
    const error = await filePersister(file).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptLimitsFileError);
    expect((error as Error).message).toContain(`${changes} is unreadable: line 1: not a JSON object`);
  });

  it("wants a rewrite until a state file exists, and once the changes outgrow the state by 1 MiB", async () => {
    const persister = filePersister(file);
    expect(persister.wantsRewrite()).toBe(true);
    await persister.load();
    expect(persister.wantsRewrite()).toBe(true);
    const many = Array.from({ length: 40_000 }, (_, i) => row(`ip:10.0.${i >> 8}.${i & 255}`, 1));
    await persister.rewrite(batches(many.slice(0, 10)), NOON);
    expect(persister.wantsRewrite()).toBe(false);
    await persister.append(batches(many), NOON + 1_000);
    expect(persister.wantsRewrite()).toBe(true);
    await persister.rewrite(batches(many), NOON + 2_000);
    expect(persister.wantsRewrite()).toBe(false);
  });

  it.each([
    { content: "{ not json", reason: "not valid JSON" },
    { content: "[]", reason: "unsupported version" },
    { content: '{"version":2,"savedAt":1,"rows":[]}', reason: "unsupported version 2" },
    { content: '{"version":1,"savedAt":1,"rows":[["a",1,2]]}', reason: "rows[0] is not" },
    { content: '{"version":1,"savedAt":1,"rows":[["a",1,2,3,4,5,6,-7]]}', reason: "rows[0] is not" },
  ])("reports a corrupt file: $reason", async ({ content, reason }) => {
    await writeFile(file, content);
    const error = await filePersister(file).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptLimitsFileError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain(reason);
  });
});

describe("persisted counters across a restart", () => {
  it("keep the minute and day counts within the same windows", async () => {
    const first = await open(NOON);
    for (let i = 0; i < 10; i++) await first.limiter.consume("key:a", FREE);
    await first.limiter.close();

    const second = await open(NOON + 30_000);
    expect(remaining(await second.limiter.consume("key:a", FREE))).toEqual([49, 989]);
    await second.limiter.close();
  });

  it("keep the day count but not the minute count in a later minute", async () => {
    const first = await open(NOON);
    for (let i = 0; i < 10; i++) await first.limiter.consume("key:a", FREE);
    await first.limiter.close();

    const second = await open(NOON + 60_000);
    expect(remaining(await second.limiter.consume("key:a", FREE))).toEqual([59, 989]);
  });

  it("start fresh after the day window resets", async () => {
    const first = await open(NOON);
    for (let i = 0; i < 10; i++) await first.limiter.consume("key:a", FREE);
    await first.limiter.close();

    const second = await open(Date.UTC(2025, 5, 11));
    expect(second.limiter.size).toBe(0);
    expect(remaining(await second.limiter.consume("key:a", FREE))).toEqual([59, 999]);
  });

  it("keep a ban until it ends, and drop it once it has", async () => {
    const first = await open(NOON);
    for (let i = 0; i < 121; i++) await first.limiter.consume("key:a", FREE);
    await first.limiter.close();

    const during = await open(NOON + 300_000);
    expect(await during.limiter.consume("key:a", FREE)).toMatchObject({ reason: "key_banned", retryAfter: 600 });
    const after = await open(NOON + 900_000);
    expect(await after.limiter.consume("key:a", FREE)).toMatchObject({ allowed: true });
  });

  it("a corrupt file: warns, starts empty, and is replaced by the next save", async () => {
    await writeFile(file, "{ torn");
    const { limiter, warnings } = await open(NOON);
    expect(warnings).toEqual([expect.stringContaining(`${file} is unreadable: not valid JSON`)]);
    expect(warnings[0]).toContain("starting with empty rate-limit counters");
    expect(remaining(await limiter.consume("key:a", FREE))).toEqual([59, 999]);
    await limiter.close();
    const saved = JSON.parse(await readFile(file, "utf8")) as Snapshot;
    expect(saved.rows).toEqual([["key:a", NOON / 60_000, 1, 0, Math.floor(NOON / 86_400_000), 1, 0, 0]]);
  });

  it("prunes subjects whose windows ended and who are not banned when saving", async () => {
    const { clock, limiter } = await open(Date.UTC(2025, 5, 10, 23, 50));
    await limiter.consume("ip:10.0.0.1", FREE);
    for (let i = 0; i < 121; i++) await limiter.consume("ip:10.0.0.2", FREE);
    clock.t = Date.UTC(2025, 5, 11, 0, 1);
    await limiter.flush();
    const saved = JSON.parse(await readFile(file, "utf8")) as Snapshot;
    expect(saved.rows.map((row) => row[0])).toEqual(["ip:10.0.0.2"]);
    expect(limiter.size).toBe(1);
  });
});

describe("save cadence", () => {
  it("saves at most once a second, only when something changed, and at close", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const persister = new MemoryPersister();
    const { clock, limiter } = await open(NOON, persister);

    for (let ms = 0; ms < 1_000; ms += 10) {
      clock.t = NOON + ms;
      await limiter.consume("key:a", ROOMY);
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(persister.saves).toBe(1);
    expect(persister.last?.rows[0]?.[2]).toBe(100);

    await vi.advanceTimersByTimeAsync(10_000);
    expect(persister.saves).toBe(1);

    await limiter.consume("key:a", ROOMY);
    await vi.advanceTimersByTimeAsync(999);
    expect(persister.saves).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(persister.saves).toBe(2);

    await limiter.consume("key:a", ROOMY);
    await limiter.close();
    expect(persister.saves).toBe(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("saves once a second under continuous traffic", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const persister = new MemoryPersister();
    const { clock, limiter } = await open(NOON, persister);
    for (let ms = 0; ms < 3_000; ms += 10) {
      clock.t = NOON + ms;
      await limiter.consume("key:a", ROOMY);
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(persister.saves).toBe(3);
    expect(persister.last?.rows[0]?.[5]).toBe(300);
  });

  it("warns once when saving fails and retries with the next change", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const memory = new MemoryPersister();
    let broken = true;
    const refuse = () => Promise.reject(new Error("EROFS: read-only file system"));
    const flaky: LimitsPersister = {
      load: () => memory.load(),
      append: (rows, savedAt) => (broken ? refuse() : memory.append(rows, savedAt)),
      rewrite: (rows, savedAt) => (broken ? refuse() : memory.rewrite(rows, savedAt)),
      wantsRewrite: () => memory.wantsRewrite(),
    };
    const { limiter, warnings } = await open(NOON, flaky);
    await limiter.consume("key:a", FREE);
    await vi.advanceTimersByTimeAsync(1_000);
    await limiter.consume("key:a", FREE);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(warnings).toEqual(["cannot save the rate-limit counters: EROFS: read-only file system"]);
    broken = false;
    await limiter.consume("key:a", FREE);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(memory.last?.rows[0]?.[2]).toBe(3);
  });

  it("flush() rejects when saving fails, close() warns and resolves", async () => {
    const refuse = () => Promise.reject(new Error("ENOSPC: no space left on device"));
    const failing: LimitsPersister = { load: async () => undefined, append: refuse, rewrite: refuse, wantsRewrite: () => false };
    const { limiter, warnings } = await open(NOON, failing);
    await limiter.consume("key:a", FREE);
    await expect(limiter.flush()).rejects.toThrow("ENOSPC");
    await expect(limiter.close()).resolves.toBeUndefined();
    expect(warnings).toEqual(["cannot save the rate-limit counters at close: ENOSPC: no space left on device"]);
  });
});

describe("saves that cost what changed", () => {
  it("the first save writes the state file, later ones append only the subjects changed since", async () => {
    const { limiter } = await open(NOON);
    await limiter.consume("key:a", FREE);
    await limiter.consume("key:b", FREE);
    await limiter.flush();
    expect((JSON.parse(await readFile(file, "utf8")) as Snapshot).rows.map((r) => r[0])).toEqual(["key:a", "key:b"]);
    await limiter.consume("key:a", FREE);
    await limiter.flush();
    await limiter.consume("key:c", FREE);
    await limiter.flush();
    const lines = (await readFile(changes, "utf8")).trim().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { rows: SubjectRow[] }).rows.map((r) => r[0]))).toEqual([["key:a"], ["key:c"]]);
    await limiter.close();
    const reopened = await open(NOON + 1_000);
    expect(remaining(await reopened.limiter.consume("key:a", FREE))).toEqual([57, 997]);
  });

  it("the request that starts a new UTC day does not sweep; the next save drops the expired subjects", async () => {
    const { clock, limiter } = await open(Date.UTC(2025, 5, 10, 23, 59));
    for (let i = 0; i < 20_000; i++) await limiter.consume(`ip:${i}`, FREE);
    await limiter.flush();
    await limiter.consume("ip:0", FREE);
    await limiter.flush();
    expect(await readFile(changes, "utf8")).not.toBe("");
    clock.t = Date.UTC(2025, 5, 11, 0, 0, 1);
    await limiter.consume("ip:new", FREE);
    expect(limiter.size).toBe(20_001);
    await limiter.flush();
    expect(limiter.size).toBe(1);
    expect((await readFile(changes, "utf8"))).toBe("");
    const saved = JSON.parse(await readFile(file, "utf8")) as Snapshot;
    expect(saved.rows.map((r) => r[0])).toEqual(["ip:new"]);
    await limiter.close();
  });

  it("without a persister, the new day's sweep starts after the request that noticed it and runs in turns", async () => {
    const clock = { t: Date.UTC(2025, 5, 10, 23, 59) };
    const { MemoryRateLimiter } = await import("../../src/limits/memory-rate-limiter.js");
    const limiter = new MemoryRateLimiter({ now: () => clock.t, ban: BAN });
    for (let i = 0; i < 20_000; i++) limiter.decide(`ip:${i}`, FREE);
    clock.t = Date.UTC(2025, 5, 11, 0, 0, 1);
    limiter.decide("ip:new", FREE);
    expect(limiter.size).toBe(20_001);
    await new Promise((resolve) => setImmediate(resolve));
    expect(limiter.size).toBeGreaterThan(10_000);
    await vi.waitFor(() => expect(limiter.size).toBe(1));
  });

  it("a change made while a rewrite runs is appended by the next save", async () => {
    const memory = new MemoryPersister();
    let late: (() => void) | undefined;
    const observed: LimitsPersister = {
      load: () => memory.load(),
      append: (rows, savedAt) => memory.append(rows, savedAt),
      wantsRewrite: () => true,
      async rewrite(rows, savedAt) {
        async function* afterFirst(): RowBatches {
          for await (const batch of rows) {
            yield batch;
            late?.();
            late = undefined;
          }
        }
        await memory.rewrite(afterFirst(), savedAt);
      },
    };
    const { limiter } = await open(NOON, observed);
    for (let i = 0; i < 12_000; i++) await limiter.consume(`ip:${i}`, FREE);
    late = () => void limiter.consume("ip:0", FREE);
    await limiter.flush();
    expect(memory.last?.rows.find((r) => r[0] === "ip:0")?.[2]).toBe(1);
    observed.wantsRewrite = () => false;
    await limiter.flush();
    expect(memory.last?.rows.find((r) => r[0] === "ip:0")?.[2]).toBe(2);
  });
});
