// Issue 7, "Disk trouble": the db cannot be written, for real. The kernel refuses to grow files past
// the process's file size limit (EFBIG, after a short write), which works on an already open journal,
// as root, without a mount. Creates answer 503, never 201; reads go on; nothing acknowledged is lost.
import { readdir, readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Pet } from "../../src/contract/values.js";
import { StorageUnavailableError } from "../../src/store/errors.js";
import { expectError } from "../helpers/assertions.js";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";
import { newPet, openCounted, removeTempDirs, tempDbPath } from "../store/support.js";
import { createPet, listAllPets, postPet, type Api } from "./store-api.js";
import { limitFileSize } from "./store-file-size.js";

afterAll(removeTempDirs);

const running: ServeProcess[] = [];
afterEach(async () => {
  await limitFileSize(process.pid, "unlimited");
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
});

async function serve(dbPath?: string): Promise<{ server: ServeProcess; api: Api }> {
  const server = await startServeProcess({ dbPath, args: ["--quiet"] });
  running.push(server);
  return { server, api: { baseUrl: server.baseUrl, key: server.adminKey } };
}

describe("the lowdb store when the disk refuses a batch", () => {
  it("rejects it with StorageUnavailableError, cuts the partial line off, hides it, and writes the next batch", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    await store.pets.create(newPet(1));
    const journal = await readFile(`${file}.journal`);

    // 10 bytes of the next line fit, then EFBIG: the torn bytes must not stay in the journal.
    await limitFileSize(process.pid, journal.length + 10);
    const failed = await Promise.allSettled([store.pets.create(newPet(2)), store.pets.create(newPet(3))]);
    await limitFileSize(process.pid, "unlimited");
    for (const result of failed) {
      expect(result.status).toBe("rejected");
      const reason = (result as PromiseRejectedResult).reason as StorageUnavailableError;
      expect(reason).toBeInstanceOf(StorageUnavailableError);
      expect(reason.file).toBe(file);
      expect(reason.reason).toMatch(/^EFBIG/);
    }
    expect(await readFile(`${file}.journal`)).toEqual(journal);
    expect((await store.pets.list({ limit: 10 })).pets.map((pet) => pet.id)).toEqual([1]);

    expect((await store.pets.create(newPet(4))).id).toBe(4);
    await store.close();
    const reopened = await openCounted(file);
    expect((await reopened.store.pets.list({ limit: 10 })).pets.map((pet) => pet.id)).toEqual([1, 4]);
    expect((await reopened.store.pets.create(newPet(5))).id).toBe(5);
    expect(reopened.warnings).toEqual([]);
    await reopened.store.close();
  });
});

describe("petstore serve when the disk refuses writes", () => {
  it("answers creates 503 storage_unavailable with Retry-After, serves reads, recovers, and loses nothing", async () => {
    const { server, api } = await serve();
    const pid = server.child.pid!;
    const journal = `${server.dbPath}.journal`;
    const acknowledged: Pet[] = [];
    for (const name of ["a", "b", "c"]) acknowledged.push(await createPet(api, name));
    const size = (await stat(journal)).size;

    await limitFileSize(pid, size + 10);
    const refused = await Promise.all(["d", "e", "f"].map((name) => postPet(api, { name, categoryId: 2 })));
    for (const response of refused) {
      expect(response.headers.get("retry-after")).toBe("5");
      await expectError(response, 503, "storage_unavailable");
    }
    expect((await stat(journal)).size).toBe(size);
    expect(await listAllPets(api)).toEqual(acknowledged);
    const read = await fetch(`${api.baseUrl}/pets/2`, { headers: { authorization: `Bearer ${api.key}` } });
    expect({ status: read.status, body: await read.json() }).toEqual({ status: 200, body: acknowledged[1] });

    // Nothing can grow now, the rate-limit counters file included: a warning, not a crash.
    await limitFileSize(pid, 0);
    await expectError(await postPet(api, { name: "g", categoryId: 1 }), 503, "storage_unavailable");
    await expect.poll(() => server.stderr(), { timeout: 10_000 }).toMatch(/cannot save the rate-limit counters: .*EFBIG/);

    await limitFileSize(pid, "unlimited");
    const after = await createPet(api, "h");
    expect(after.id).toBeGreaterThan(acknowledged.at(-1)!.id);
    acknowledged.push(after);
    expect(await listAllPets(api)).toEqual(acknowledged);

    // Stopping while the disk refuses: the journal cannot be folded into the db, so it stays for the next start.
    await limitFileSize(pid, 0);
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.stderr()).toMatch(/cannot fold .*\.journal into .* at close \(EFBIG/);
    // No temporary file left behind by the failed writes (the counters files exist only if a save got through).
    const files = (await readdir(dirname(server.dbPath))).filter((name) => !/^petstore\.json\.limits\.(json|log)$/.test(name));
    expect(files.sort()).toEqual(["petstore.json", "petstore.json.journal"]);

    const restarted = await serve(server.dbPath);
    expect(await listAllPets(restarted.api)).toEqual(acknowledged);
    expect((await createPet(restarted.api, "i")).id).toBeGreaterThan(after.id);
    expect(await restarted.server.stop("SIGTERM")).toBe(0);
    expect(restarted.server.stderr()).not.toMatch(/cannot|Error/);
  });
});
