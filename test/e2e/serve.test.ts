import { spawn } from "node:child_process";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json } from "../helpers/assertions.js";
import { callApi } from "../helpers/test-server.js";
import { BIN, startServeProcess, tempDbPath, TEST_ADMIN_KEY, type ServeProcess } from "../helpers/serve-process.js";
import { unusedTestPort } from "../helpers/test-port.js";

const running: ServeProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
});

async function serve(options: Parameters<typeof startServeProcess>[0] = {}) {
  const server = await startServeProcess(options);
  running.push(server);
  return server;
}

/** Runs `petstore serve` expecting it to fail; resolves with its exit code and stderr. */
function serveFails(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "serve", ...args], {
      // Text, as on a terminal (stderr is a pipe here, where the default is JSON), unless a test says.
      env: { ...process.env, PETSTORE_ADMIN_KEY: TEST_ADMIN_KEY, PETSTORE_LOG_FORMAT: "text", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const api = (server: ServeProcess, path: string, init?: Parameters<typeof callApi>[3]) =>
  callApi(server.baseUrl, server.adminKey, path, init);

describe("petstore serve", () => {
  it("prints the API base URL, creates the db file with mode 0600, and logs one line per request", async () => {
    const server = await serve();
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect((await stat(server.dbPath)).mode & 0o777).toBe(0o600);
    expect((await api(server, "/pets?limit=5")).status).toBe(200);
    await expect.poll(() => server.stderr()).toMatch(/GET \/v1\/pets\?limit=5 200 \d+\.\dms/);
    expect(server.stderr()).not.toContain(TEST_ADMIN_KEY);
  });

  it("--quiet turns the request log off", async () => {
    const server = await serve({ args: ["--quiet"] });
    await api(server, "/pets");
    expect(server.stderr()).toBe("");
  });

  it("takes PETSTORE_PORT, PETSTORE_HOST and PETSTORE_DB from the environment, and the flag wins", async () => {
    const port = await unusedTestPort();
    const dbPath = await tempDbPath("from-env.json");
    const server = await serve({ args: ["--quiet"], env: { PETSTORE_PORT: "1", PETSTORE_HOST: "localhost", PETSTORE_DB: dbPath } });
    expect(server.baseUrl).toMatch(/^http:\/\/localhost:\d+\/v1$/); // --port from the helper beat PETSTORE_PORT=1
    await server.stop();
    const child = spawn(process.execPath, [BIN, "serve", "--quiet"], {
      env: { ...process.env, PETSTORE_ADMIN_KEY: TEST_ADMIN_KEY, PETSTORE_PORT: String(port), PETSTORE_DB: dbPath },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = await new Promise<string>((resolve) => child.stdout.setEncoding("utf8").on("data", (s: string) => resolve(s)));
    child.kill("SIGTERM");
    expect(url).toContain(`http://127.0.0.1:${port}/v1`);
    expect(url).toContain(dbPath);
  });

  it("refuses a port that is in use instead of moving to another one, and leaves no file behind", async () => {
    const server = await serve();
    const port = new URL(server.baseUrl).port;
    const dbPath = await tempDbPath();
    const result = await serveFails(["--port", port, "--db", dbPath]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `petstore serve: cannot listen on 127.0.0.1:${port}: the port is in use: another process listens on ${port} ` +
        "(stop it, or choose another --port; 0 picks a free one)\n",
    );
    expect(await readdir(dirname(dbPath))).toEqual([]);
  });

  it.each([
    ["192.0.2.1", "192.0.2.1 is not an address of this machine (EADDRNOTAVAIL): --host takes one of its own addresses, 127.0.0.1, or 0.0.0.0 for all of them"],
    ["nosuchhost.invalid", /^the host name nosuchhost\.invalid cannot be resolved/],
  ])("--host %s: says what happened, exit 1, no file behind", async (host, words) => {
    const dbPath = await tempDbPath("x.json");
    const result = await serveFails(["--host", host, "--port", "0", "--db", dbPath]);
    expect(result.code).toBe(1);
    const [first, why] = /^petstore serve: cannot listen on [^:]+:0: (.*)\n$/.exec(result.stderr) ?? [];
    expect(first, result.stderr).toBeDefined();
    if (typeof words === "string") expect(why).toBe(words);
    else expect(why).toMatch(words);
    expect(await readdir(dirname(dbPath))).toEqual([]);
  });

  it("a listener that fails once the db is open (the metrics port taken) leaves no file behind either", async () => {
    const holder = await serve();
    const port = new URL(holder.baseUrl).port;
    const dbPath = await tempDbPath("x.json");
    const result = await serveFails(["--port", "0", "--metrics-port", port, "--db", dbPath]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot listen for metrics on 127.0.0.1:${port}: the port is in use: another process listens on ${port}`);
    expect(await readdir(dirname(dbPath))).toEqual([]);
  });

  it("a failed start keeps a db that was there before, as it was", async () => {
    const holder = await serve();
    const port = new URL(holder.baseUrl).port;
    const dbPath = await tempDbPath();
    const content = '{"version":3,"nextPetId":1,"pets":[],"keys":[]}';
    await writeFile(dbPath, content);
    const result = await serveFails(["--port", "0", "--metrics-port", port, "--db", dbPath]);
    expect(result.code).toBe(1);
    expect(await readdir(dirname(dbPath))).toEqual(["petstore.json"]);
    expect(JSON.parse(await readFile(dbPath, "utf8"))).toMatchObject({ version: 3, nextPetId: 1, pets: [], keys: [] });
  });

  it("creates the bootstrap admin key only once listening: a start on a taken port stores none", async () => {
    const holder = await serve();
    const port = new URL(holder.baseUrl).port;
    const dbPath = await tempDbPath();
    const failed = await serveFails(["--port", port, "--db", dbPath], { PETSTORE_ADMIN_KEY: "" });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/the port is in use/);
    expect(failed.stderr).not.toMatch(/ps_[0-9A-Za-z]{40}/);
    await expect(stat(dbPath)).rejects.toThrow(/ENOENT/);

    const started = await serve({ dbPath, adminKey: null, args: ["--quiet"] });
    await expect.poll(() => started.stderr()).toMatch(/Created an admin API key/);
    const secret = /export PETSTORE_API_KEY=(ps_\S+)/.exec(started.stderr())?.[1];
    // Port 0 is never the client's default address, so the notice names the one to use.
    expect(started.stderr()).toContain(`export PETSTORE_BASE_URL=${started.baseUrl}`);
    expect((await callApi(started.baseUrl, secret!, "/keys")).status).toBe(200);
  });

  it.each([["--port", "http"], ["--port", "70000"], ["--port", "-1"]])("exits 2 on %s %s", async (flag, value) => {
    const result = await serveFails([flag, value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--port must be an integer from 0 to 65535/);
  });

  it("exits 2 when PETSTORE_ADMIN_KEY is shorter than 24 characters", async () => {
    const result = await serveFails(["--port", "0", "--db", await tempDbPath()], { PETSTORE_ADMIN_KEY: "too-short" });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/PETSTORE_ADMIN_KEY must be at least 24 characters/);
  });

  it("stops on SIGINT too: exit 0, data flushed, lock released", async () => {
    const server = await serve({ args: ["--quiet"] });
    const pet = await json(await api(server, "/pets", { json: { name: "ctrl-c", categoryId: 1 } }));
    expect(await server.stop("SIGINT")).toBe(0);
    const onDisk = JSON.parse(await readFile(server.dbPath, "utf8")) as { pets: { id: number }[] };
    expect(onDisk.pets.map((p) => p.id)).toContain(pet.id);
    await expect(stat(`${server.dbPath}.lock`)).rejects.toThrow();
  });

  it("exits non-zero on a corrupt db, naming the file and the parse error, and leaves it untouched", async () => {
    const dbPath = await tempDbPath();
    const garbage = '{"version":1,"nextPetId":3,"pets":[{"id":1,"name":"a"';
    await writeFile(dbPath, garbage);
    const result = await serveFails(["--port", "0", "--db", dbPath]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(dbPath);
    expect(result.stderr).toMatch(/JSON/);
    expect(await readFile(dbPath, "utf8")).toBe(garbage);
  });

  it("refuses a second instance on the same db, naming the holder's pid", async () => {
    const first = await serve();
    const result = await serveFails(["--port", "0", "--db", first.dbPath]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`pid ${first.child.pid}`);
    expect((await api(first, "/pets")).status).toBe(200);
  });

  it("takes over a lock left by a dead process, with a warning", async () => {
    const first = await serve({ args: ["--quiet"] });
    await first.stop("SIGKILL");
    const second = await serve({ dbPath: first.dbPath, args: ["--quiet"] });
    expect(second.stderr()).toMatch(new RegExp(`warning: .*${first.child.pid}`));
    expect((await api(second, "/pets")).status).toBe(200);
  });

  it("keeps 200 concurrent creates: 200 distinct ids, all present after a restart", async () => {
    const first = await serve({ args: ["--quiet"] });
    const created = await Promise.all(
      Array.from({ length: 200 }, (_, i) => api(first, "/pets", { json: { name: `p${i}`, categoryId: 1 } }).then(json)),
    );
    const ids = created.map((pet: { id: number }) => pet.id).sort((a: number, b: number) => a - b);
    expect(ids).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(await first.stop()).toBe(0);
    const second = await serve({ dbPath: first.dbPath, args: ["--quiet"] });
    const listed = [...(await json(await api(second, "/pets?limit=100"))), ...(await json(await api(second, "/pets?limit=100&cursor=" + Buffer.from("p100").toString("base64url"))))];
    expect(listed.map((pet: { id: number }) => pet.id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const next = await json(await api(second, "/pets", { json: { name: "after", categoryId: 1 } }));
    expect(next.id).toBe(201);
  });

  it("on SIGTERM under load: every request in flight gets a complete answer, every 201 is on disk, exit 0, lock released", async () => {
    const server = await serve({ args: ["--quiet"] });
    const answers: { status: number; body: string }[] = [];
    let stopping = false;
    let answeredAfterSignal = 0;
    const worker = async (w: number) => {
      for (let i = 0; ; i++) {
        try {
          const response = await api(server, "/pets", { json: { name: `w${w}-${i}`, categoryId: 2 } });
          answers.push({ status: response.status, body: await response.text() });
          if (stopping) answeredAfterSignal++;
        } catch {
          return; // the listener is closed: a refused or reset connection, never a half answer
        }
      }
    };
    const workers = Array.from({ length: 16 }, (_, w) => worker(w));
    // The signal comes once the load is under way (a count, not a fixed delay: a busy machine is slower).
    await vi.waitFor(() => expect(answers.length).toBeGreaterThan(16), { timeout: 10_000, interval: 20 });
    stopping = true;
    const exit = server.stop("SIGTERM");
    await Promise.all(workers);
    expect(await exit).toBe(0);
    expect(server.stderr()).toMatch(/SIGTERM: finishing in-flight requests/);
    expect(answers.length).toBeGreaterThan(16);
    expect(answeredAfterSignal).toBeGreaterThan(0);
    for (const answer of answers) expect(answer.status).toBe(201);
    const acknowledged = answers.map((answer) => JSON.parse(answer.body) as { id: number; name: string });
    const onDisk = JSON.parse(await readFile(server.dbPath, "utf8")) as { pets: { id: number; name: string }[] };
    const stored = new Map(onDisk.pets.map((pet) => [pet.id, pet.name]));
    for (const pet of acknowledged) expect(stored.get(pet.id)).toBe(pet.name);
    await expect(stat(`${server.dbPath}.lock`)).rejects.toThrow();
  });
});

describe("serve's output: one stream, one format", () => {
  const parseLines = (stderr: string) => stderr.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);

  it("--log-format json: the stop and its end are JSON lines like the rest", async () => {
    const server = await serve({ args: ["--log-format", "json"] });
    expect((await api(server, "/pets")).status).toBe(200);
    await expect.poll(() => server.stderr()).toContain('"path":"/v1/pets"');
    expect(await server.stop("SIGTERM")).toBe(0);
    const lines = parseLines(server.stderr());
    expect(lines.slice(-2)).toEqual([
      expect.objectContaining({ level: "info", msg: "SIGTERM: finishing in-flight requests, then stopping", time: expect.any(String) }),
      expect.objectContaining({ level: "info", msg: "stopped", time: expect.any(String) }),
    ]);
  });

  it("--log-format json: a start that fails says why in one JSON line, exit 1", async () => {
    const holder = await serve();
    const port = new URL(holder.baseUrl).port;
    const result = await serveFails(["--port", port, "--db", await tempDbPath(), "--log-format", "json"]);
    expect(result.code).toBe(1);
    const lines = parseLines(result.stderr);
    expect(lines).toEqual([expect.objectContaining({ level: "fatal", msg: expect.stringMatching(`^cannot listen on 127.0.0.1:${port}: the port is in use`) })]);
  });

  it("text: the stop lines as before", async () => {
    const server = await serve({ args: ["--quiet"] });
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.stderr()).toBe("SIGTERM: finishing in-flight requests, then stopping\nstopped\n");
  });

  it("probes that pass are not logged; the requests around them are", async () => {
    const server = await serve();
    for (const path of ["/healthz", "/readyz", "/healthz"]) expect((await fetch(`${server.origin}${path}`)).status).toBe(200);
    expect((await api(server, "/pets?limit=2")).status).toBe(200);
    await expect.poll(() => server.stderr()).toMatch(/GET \/v1\/pets\?limit=2 200/);
    expect(server.stderr()).not.toMatch(/healthz|readyz/);
  });
});
