// Issue 18 with the built server as a subprocess: SIGHUP reloads the limits file without
// dropping anything, and a disk that refuses writes is logged once, its recovery once.
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { limitFileSize } from "../fault/store-file-size.js";
import { startServeProcess, tempDbPath, type ServeProcess } from "../helpers/serve-process.js";
import { clearOfWindowEnd } from "../helpers/window-edge.js";

const running: ServeProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
});

const limitsFile = (perMinute: number) => JSON.stringify({ anonymous: { perMinute, perDay: 10_000 } });

async function anonymous(server: ServeProcess, agent?: RequestInit["headers"]): Promise<Response> {
  return fetch(`${server.baseUrl}/openapi.json`, { headers: agent });
}

describe("SIGHUP", () => {
  it("applies a changed limits file from the next request, keeps the counters and the open connection", async () => {
    const dbPath = await tempDbPath();
    const config = join(dirname(dbPath), "limits.json");
    await writeFile(config, limitsFile(50));
    const server = await startServeProcess({ dbPath, args: ["--config", config, "--quiet"] });
    running.push(server);
    // The four counted requests, the reload between them included, must fall in one minute.
    await clearOfWindowEnd(10_000);
    for (let i = 0; i < 3; i++) expect((await anonymous(server)).headers.get("x-ratelimit-remaining")).toBe(String(49 - i));

    await writeFile(config, limitsFile(20));
    server.child.kill("SIGHUP");
    await expect.poll(() => server.stderr()).toContain(`SIGHUP: reloaded the limits from ${config}`);
    const after = await anonymous(server);
    expect(after.headers.get("x-ratelimit-limit")).toBe("20");
    // Four requests counted in this minute, under the new limit.
    expect(after.headers.get("x-ratelimit-remaining")).toBe("16");
    expect(server.child.exitCode).toBeNull();
  });

  it("keeps the limits in force when the new file is invalid, and says why", async () => {
    const dbPath = await tempDbPath();
    const config = join(dirname(dbPath), "limits.json");
    await writeFile(config, limitsFile(50));
    const server = await startServeProcess({ dbPath, args: ["--config", config, "--quiet"] });
    running.push(server);
    await writeFile(config, JSON.stringify({ anonymous: { perMinute: -1 } }));
    server.child.kill("SIGHUP");
    await expect.poll(() => server.stderr()).toMatch(/warning: SIGHUP: kept the limits in force: .*anonymous\.perMinute/);
    expect((await anonymous(server)).headers.get("x-ratelimit-limit")).toBe("50");
    expect(server.child.exitCode).toBeNull();
  });
});

describe("a disk that refuses writes", () => {
  it("is logged once with its cause, then its recovery once", async () => {
    const server = await startServeProcess({ args: ["--quiet", "--log-format", "json"] });
    running.push(server);
    const create = (name: string) =>
      fetch(`${server.baseUrl}/pets`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
    expect((await create("first")).status).toBe(201);
    await limitFileSize(server.child.pid!, 1);
    for (const name of ["a", "b", "c"]) expect((await create(name)).status).toBe(503);
    await limitFileSize(server.child.pid!, "unlimited");
    expect((await create("after")).status).toBe(201);
    await expect.poll(() => server.stderr()).toContain("storage available again");
    const lines = server.stderr().trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const outage = lines.filter((line) => String(line.msg).startsWith("storage "));
    expect(outage).toEqual([
      expect.objectContaining({ level: "warn", source: server.dbPath, cause: expect.stringMatching(/^EFBIG/) }),
      expect.objectContaining({ level: "info", msg: `storage available again: ${server.dbPath}`, refused: 3 }),
    ]);
  });
});
