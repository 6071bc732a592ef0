// One db file, one server, whatever path names the file: two real `serve` processes, the second
// reaching the first's file through a symlink, a symlinked folder, `..` or a hard link.
import { link, lstat, mkdir, mkdtemp, readFile, readdir, readlink, realpath, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { json } from "../helpers/assertions.js";
import { callApi } from "../helpers/test-server.js";
import { serveToExit, startServeProcess, type ServeProcess } from "../helpers/serve-process.js";

const running: ServeProcess[] = [];
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
});
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

/** A fresh folder with data/ in it; the real path, as the server reports it. */
async function workspace(): Promise<{ root: string; data: string; db: string }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "petstore-lock-")));
  directories.push(root);
  const data = join(root, "data");
  await mkdir(data);
  return { root, data, db: join(data, "petstore.json") };
}

async function serve(dbPath: string): Promise<ServeProcess> {
  const server = await startServeProcess({ dbPath, args: ["--quiet"] });
  running.push(server);
  return server;
}

const addPet = async (server: ServeProcess, name: string) =>
  json(await callApi(server.baseUrl, server.adminKey, "/pets", { method: "POST", json: { name, categoryId: 1 } }));

/**
 * Every file in the folder with its bytes: what "untouched" is checked against. The rate-limit
 * counters are left out, and the temporary file of their atomic save: the first server saves them
 * by itself, on its own clock.
 */
async function contents(folder: string): Promise<Record<string, string>> {
  const entries = await readdir(folder, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isFile() && !/\.limits\.json(\.\d+\.\d+\.tmp)?$/.test(entry.name)).map((entry) => entry.name).sort();
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(join(folder, name), "base64")])));
}

describe("the db lock holds for the real file, whatever path names it", () => {
  const second: Array<[string, (w: { root: string; data: string; db: string }) => Promise<string>]> = [
    ["a symlink to the file", async ({ root, db }) => {
      await symlink(db, join(root, "link.json"));
      return join(root, "link.json");
    }],
    ["a relative symlink to the file", async ({ root }) => {
      await symlink("data/petstore.json", join(root, "link.json"));
      return join(root, "link.json");
    }],
    ["a symlinked folder", async ({ root, data }) => {
      await symlink(data, join(root, "folder"));
      return join(root, "folder", "petstore.json");
    }],
    // The kernel takes `..` from the link's target (data/), not lexically (root/).
    ["`..` through a symlinked folder", async ({ root, data }) => {
      await mkdir(join(data, "sub"));
      await symlink(join(data, "sub"), join(root, "via"));
      return `${join(root, "via")}/../petstore.json`;
    }],
  ];

  it.each(second)("refuses a second server through %s: exit 1, naming the real file and the holder's pid", async (_name, path) => {
    const place = await workspace();
    const first = await serve(place.db);
    const pet = await addPet(first, "First");
    const dbPath = await path(place);
    const before = { data: await contents(place.data), root: await readdir(place.root) };
    const result = await serveToExit(["--port", "0", "--db", dbPath]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`petstore serve: the database ${place.db} is in use by another petstore process (pid ${first.child.pid})\n`);
    expect({ data: await contents(place.data), root: await readdir(place.root) }).toEqual(before);
    // The first goes on handing out the ids that follow its own.
    expect((await addPet(first, "Next")).id).toBe(pet.id + 1);
  });

  it("refuses a db file with another hard link: exit 1, saying why and what to do, the first's file untouched", async () => {
    const place = await workspace();
    const first = await serve(place.db);
    await addPet(first, "First");
    const hard = join(place.root, "hard.json");
    await link(place.db, hard);
    const before = await contents(place.data);
    const result = await serveToExit(["--port", "0", "--db", hard]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^petstore serve: the database ${hard} has 2 names \\(hard links\\)\\.`));
    expect(result.stderr).toContain(`find / -samefile ${hard}`);
    expect(result.stderr).toContain("use a symbolic link");
    expect(await contents(place.data)).toEqual(before);
    expect((await stat(hard)).nlink).toBe(2);
  });
});

describe("a db reached through a symlink", () => {
  it("keeps the symlink a symlink after a clean stop; the journal, limits and lock files sit beside the target", async () => {
    const place = await workspace();
    const linkPath = join(place.root, "link.json");
    await symlink("data/petstore.json", linkPath);
    const server = await serve(linkPath);
    expect(server.baseUrl).toMatch(/^http:/);
    const pet = await addPet(server, "Linked");
    expect(await stat(`${place.db}.lock`)).toBeTruthy();
    expect(await server.stop()).toBe(0);
    expect((await lstat(linkPath)).isSymbolicLink()).toBe(true);
    expect(await readlink(linkPath)).toBe("data/petstore.json");
    const stored = JSON.parse(await readFile(place.db, "utf8")) as { pets: Array<{ name: string }> };
    expect(stored.pets.map((p) => p.name)).toEqual([pet.name]);
    expect(await readdir(place.root)).toEqual(["data", "link.json"]);
    expect((await readdir(place.data)).sort()).toEqual(["petstore.json", "petstore.json.limits.json"]);
  });

  it("creates the file where a dangling symlink points, and leaves the link in place", async () => {
    const place = await workspace();
    const linkPath = join(place.root, "link.json");
    await symlink(place.db, linkPath);
    const server = await serve(linkPath);
    await addPet(server, "New");
    expect(await server.stop()).toBe(0);
    expect((await lstat(linkPath)).isSymbolicLink()).toBe(true);
    expect((await lstat(place.db)).isFile()).toBe(true);
    expect(JSON.parse(await readFile(linkPath, "utf8"))).toMatchObject({ pets: [{ name: "New" }] });
  });
});
