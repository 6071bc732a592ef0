// `petstore db backup <file>` against a running server, file or PostgreSQL, while it keeps
// taking writes; the saved file is then served as is.
import { stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers/run-cli.js";
import { startServeProcess, tempDbPath, type ServeProcess } from "../helpers/serve-process.js";
import { freshDatabase } from "../helpers/test-backend.js";

async function createPet(server: ServeProcess, name: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/pets`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  return ((await response.json()) as { id: number }).id;
}

async function petIds(server: ServeProcess): Promise<number[]> {
  const response = await fetch(`${server.baseUrl}/pets?limit=100`, { headers: { authorization: `Bearer ${server.adminKey}` } });
  return ((await response.json()) as { id: number }[]).map((pet) => pet.id);
}

const backup = (server: ServeProcess, file: string) =>
  runCli(["db", "backup", file], { env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey } });

describe.each([
  ["a db file", async () => ({ args: [] as string[], dbPath: await tempDbPath() })],
  ["PostgreSQL", async () => {
    const { db, redis } = await freshDatabase();
    return { args: ["--redis", redis], dbPath: db };
  }],
])("db backup of a server over %s", (_engine, storage) => {
  it("saves a consistent copy while writes go on; serve --db opens it with the same pets and next id", async () => {
    const server = await startServeProcess(await storage());
    const file = `${await tempDbPath()}.backup.json`;
    let saved: number[];
    try {
      for (let i = 0; i < 5; i++) await createPet(server, `before ${i}`);
      const writes = Promise.all(Array.from({ length: 20 }, (_, i) => createPet(server, `during ${i}`)));
      const result = await backup(server, file);
      await writes;
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/^Saved \d+ pets, \d+ keys, 0 orders to /);
      saved = (await petIds(server)).slice(0, Number(/Saved (\d+) pets/.exec(result.stderr)?.[1]));
      expect(saved.length).toBeGreaterThanOrEqual(5);
      expect(((await stat(file)).mode & 0o777).toString(8)).toBe("600");
      expect((await backup(server, file)).stderr).toMatch(/exists: choose a new file/);
    } finally {
      await server.stop();
    }
    const restored = await startServeProcess({ dbPath: file });
    try {
      // Ids are handed out in order, so a consistent copy holds a prefix of them.
      expect(await petIds(restored)).toEqual(saved);
      expect(await createPet(restored, "after")).toBeGreaterThan(saved.at(-1) ?? 0);
    } finally {
      await restored.stop();
    }
  });
});
