// A db file written by an older petstore (format version 1, before keys could expire or be
// rotated; version 2, before keys had scopes) is upgraded at open, after a copy of it is kept
// beside it.
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../src/contract/scopes.js";
import { StoreCorruptError } from "../../src/store/errors.js";
import { keyRecord, openCounted, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const FIXTURE = fileURLToPath(new URL("../fixtures/petstore-v1.json", import.meta.url));
/** Today's format before scopes: five keys of every kind, and one more in its journal. */
const V2_FIXTURE = fileURLToPath(new URL("../fixtures/petstore-v2.json", import.meta.url));

describe("a version 1 db file", () => {
  it("is upgraded to version 3 at open, the old file kept as <file>.v1.bak, its data unchanged", async () => {
    const file = await tempDbPath();
    await copyFile(FIXTURE, file);
    const { store, warnings } = await openCounted(file);
    expect(warnings).toEqual([`upgraded ${file} from format version 1 to 3; the old file is kept as ${file}.v1.bak`]);
    expect(await readFile(`${file}.v1.bak`, "utf8")).toBe(await readFile(FIXTURE, "utf8"));
    const upgraded = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(upgraded.version).toBe(3);
    expect({ ...upgraded, version: 1 }).toEqual(JSON.parse(await readFile(FIXTURE, "utf8")));
    expect((await store.keys.list()).map((key) => key.name)).toEqual(["from v1"]);
    expect((await store.keys.list()).map((key) => key.scopes)).toEqual([SCOPES]);
    expect((await store.pets.create({ name: "New", categoryId: 1, status: "available" })).id).toBe(4);
    await store.close();

    const again = await openCounted(file);
    expect(again.warnings).toEqual([]);
    await again.store.close();
  });

  it("is upgraded byte for byte but for its version when larger than one read chunk (1 MiB), spaced out", async () => {
    const file = await tempDbPath();
    const fixture = JSON.parse(await readFile(FIXTURE, "utf8")) as { pets: { id: number }[]; nextPetId: number };
    const pets = Array.from({ length: 30_000 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1} é🐾`, categoryId: 1 + (i % 9), status: "available" }));
    const text = JSON.stringify({ ...fixture, pets, nextPetId: 30_001 }).replace(/^\{"version":1,/, '{ "version" : 1 ,');
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * 1024 * 1024);
    await writeFile(file, text);
    const { store, warnings } = await openCounted(file);
    expect(warnings).toHaveLength(1);
    await store.close();
    expect(await readFile(file, "utf8")).toBe(text.replace('"version" : 1 ,', '"version" : 3 ,'));
    expect(await readFile(`${file}.v1.bak`, "utf8")).toBe(text);
  });

  it("is upgraded too when written by hand with the version last", async () => {
    const file = await tempDbPath();
    const { version: _version, ...rest } = JSON.parse(await readFile(FIXTURE, "utf8")) as Record<string, unknown>;
    // Spaced out as a person would write it: start-up reads only the first bytes when it can.
    await writeFile(file, JSON.stringify({ ...rest, version: 1 }, null, 2));
    const { store, warnings } = await openCounted(file);
    expect(warnings).toEqual([`upgraded ${file} from format version 1 to 3; the old file is kept as ${file}.v1.bak`]);
    expect((JSON.parse(await readFile(file, "utf8")) as { version: number }).version).toBe(3);
    expect((await store.keys.list()).map((key) => key.name)).toEqual(["from v1"]);
    await store.close();
  });

  it("is left untouched, with no copy, when it cannot be opened", async () => {
    const file = await tempDbPath();
    const broken = (await readFile(FIXTURE, "utf8")).replace('"status":"sold"', '"status":"lost"');
    await writeFile(file, broken);
    await expect(openCounted(file)).rejects.toBeInstanceOf(StoreCorruptError);
    expect(await readFile(file, "utf8")).toBe(broken);
    await expect(readFile(`${file}.v1.bak`)).rejects.toThrow(/ENOENT/);
  });

  it("a file of a newer version is refused, naming the version", async () => {
    const file = await tempDbPath();
    await writeFile(file, (await readFile(FIXTURE, "utf8")).replace('"version":1', '"version":4'));
    await expect(openCounted(file)).rejects.toThrow(/version/);
  });
});

describe("a version 2 db file and its journal (before keys had scopes)", () => {
  async function copyV2(): Promise<string> {
    const file = await tempDbPath();
    await copyFile(V2_FIXTURE, file);
    await copyFile(`${V2_FIXTURE}.journal`, `${file}.journal`);
    return file;
  }

  it("is upgraded to version 3 byte for byte but for its version; every key keeps all it could do, the admin stays admin", async () => {
    const file = await copyV2();
    const fixture = await readFile(V2_FIXTURE, "utf8");
    const { store, warnings } = await openCounted(file);
    expect(warnings).toEqual([`upgraded ${file} from format version 2 to 3; the old file is kept as ${file}.v2.bak`]);
    expect(await readFile(`${file}.v2.bak`, "utf8")).toBe(fixture);
    expect(await readFile(file, "utf8")).toBe(fixture.replace('{"version":2,', '{"version":3,'));

    const v2Keys = (JSON.parse(fixture) as { keys: object[] }).keys;
    const journalKey = (JSON.parse(await readFile(`${V2_FIXTURE}.journal`, "utf8")) as { keys: object[] }).keys[0];
    const keys = await store.keys.list();
    // Each is what the old file held, field for field, with the five scopes of a key created without any.
    expect(keys).toEqual([...v2Keys, journalKey].map((key) => ({ ...key, scopes: SCOPES })));
    expect(keys.filter((key) => key.admin).map((key) => key.id)).toEqual(["key_v2admin"]);
    await store.close();
  });

  it("once rewritten, states every key's scopes in the file, and a scoped key keeps its own across reopens", async () => {
    const file = await copyV2();
    const { store } = await openCounted(file);
    await store.keys.create(keyRecord("key_narrow", { scopes: ["pets:read", "events:read"] }));
    await store.close();
    const written = JSON.parse(await readFile(file, "utf8")) as { version: number; keys: { id: string; scopes: string[] }[] };
    expect(written.version).toBe(3);
    expect(Object.fromEntries(written.keys.map((key) => [key.id, key.scopes]))).toEqual({
      key_v2admin: SCOPES,
      key_v2pro: SCOPES,
      key_v2business: SCOPES,
      key_v2rotated: SCOPES,
      key_v2revoked: SCOPES,
      key_v2journal: SCOPES,
      key_narrow: ["pets:read", "events:read"],
    });
    const again = await openCounted(file);
    expect(again.warnings).toEqual([]);
    expect((await again.store.keys.findByHash("hash-of-key_narrow"))?.scopes).toEqual(["pets:read", "events:read"]);
    await again.store.close();
  });
});
