// The limiter's own Redis connection against a real redis-server: pipelining, the URL's
// credentials and database, deadlines, losing Redis and finding it again, a graceful quit, TLS.
// ioredis beside it is the independent client that sets things up and looks at the result.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, connect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { openRespConnection, type RespConnection, type RespConnectionOptions } from "../../src/limits/resp/resp-connection.js";
import { RedisReplyError } from "../../src/limits/resp/resp-reader.js";
import { startRedis, type RestartableEngine } from "../helpers/engines.js";
import { unusedTestPort } from "../helpers/test-port.js";
import { startServeProcess } from "../helpers/serve-process.js";

const run = promisify(execFile);
const OPTIONS: RespConnectionOptions = { commandTimeoutMs: 2_000, connectTimeoutMs: 5_000 };

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function redisServer(options?: Parameters<typeof startRedis>[0]): Promise<RestartableEngine> {
  const redis = await startRedis(options);
  cleanups.push(() => redis.stop());
  return redis;
}

async function open(url: string, options: Partial<RespConnectionOptions> = {}): Promise<RespConnection> {
  const connection = await openRespConnection(url, { ...OPTIONS, ...options });
  cleanups.push(() => connection.quit());
  return connection;
}

function control(url: string): Redis {
  const redis = new Redis(url, { lazyConnect: false });
  cleanups.push(() => redis.disconnect());
  return redis;
}

/** A TCP relay in front of Redis that counts the reads on its side: how many writes the client made, near enough. */
async function countingRelay(target: URL): Promise<{ url: string; reads: () => number; server: Server }> {
  let reads = 0;
  const server = createServer((client: Socket) => {
    const upstream = connect(Number(target.port), target.hostname);
    client.on("data", (chunk) => {
      reads++;
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const port = (server.address() as { port: number }).port;
  return { url: `redis://127.0.0.1:${port}`, reads: () => reads, server };
}

/** How many write system calls this process has made (Linux: /proc/self/io). */
function writeCalls(): number {
  return Number(/^syscw: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))?.[1]);
}

describe("RespConnection", () => {
  it("answers each command in the order sent, and sends the commands of one turn in one write", async () => {
    const redis = await redisServer();
    const relay = await countingRelay(new URL(redis.url));
    const connection = await open(relay.url);
    const before = relay.reads();
    const replies = await Promise.all(Array.from({ length: 200 }, () => connection.call(["INCR", "counter"])));
    expect(replies).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(relay.reads() - before).toBeLessThanOrEqual(2);
    // Commands asked for by separate callbacks of one phase of the loop, as requests read from
    // several sockets are (each callback's nextTick queue runs before the next): still one write.
    // The relay cannot tell (TCP joins small writes), so count this process's write calls: one
    // for the 50 commands, and a few of the test runner's own (a write per command would be 50).
    const writesBefore = writeCalls();
    const fromTimers = await Promise.all(
      Array.from({ length: 50 }, () => new Promise((resolve) => setTimeout(() => resolve(connection.call(["INCR", "timers"])), 5))),
    );
    expect(fromTimers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(writeCalls() - writesBefore).toBeLessThanOrEqual(10);
    expect(await connection.call(["ECHO", "ünïcode"])).toBe("ünïcode");
    await expect(connection.call(["NOSUCHCOMMAND"])).rejects.toBeInstanceOf(RedisReplyError);
    // An error answers only its own command.
    expect(await connection.call(["INCR", "counter"])).toBe(201);
  });

  it("logs in with the URL's password, or user and password, selects its database and names itself", async () => {
    const redis = await redisServer({ extraArgs: ["--requirepass", "s3cret"] });
    const port = new URL(redis.url).port;
    const admin = control(`redis://:s3cret@127.0.0.1:${port}/0`);
    await admin.call("ACL", "SETUSER", "limiter", "on", ">pa:ss", "~*", "+@all");

    const withPassword = await open(`redis://:s3cret@127.0.0.1:${port}/7`, { clientName: "petstore-test" });
    await withPassword.call(["SET", "where", "seven"]);
    const withUser = await open(`redis://limiter:${encodeURIComponent("pa:ss")}@127.0.0.1:${port}/8`);
    await withUser.call(["SET", "where", "eight"]);

    const look = control(`redis://:s3cret@127.0.0.1:${port}/7`);
    expect(await look.get("where")).toBe("seven");
    await look.select(8);
    expect(await look.get("where")).toBe("eight");
    expect(await look.client("LIST")).toMatch(/name=petstore-test .*db=7/);
  });

  it("refuses to open with a wrong password, saying why", async () => {
    const redis = await redisServer({ extraArgs: ["--requirepass", "s3cret"] });
    const url = `redis://:wrong@127.0.0.1:${new URL(redis.url).port}`;
    await expect(openRespConnection(url, OPTIONS)).rejects.toThrow(/WRONGPASS|invalid username-password/);
  });

  it("refuses to open when nothing listens, and when nothing answers in time", async () => {
    await expect(openRespConnection(`redis://127.0.0.1:${await unusedTestPort()}`, OPTIONS)).rejects.toThrow(/ECONNREFUSED/);
    const accepted: Socket[] = [];
    const silent = createServer((socket) => void accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => silent.close(resolve)));
    cleanups.push(() => accepted.forEach((socket) => socket.destroy()));
    const started = Date.now();
    const url = `redis://:pw@127.0.0.1:${(silent.address() as { port: number }).port}`;
    await expect(openRespConnection(url, { ...OPTIONS, connectTimeoutMs: 300 })).rejects.toThrow(/no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("rejects a command not answered by its deadline, then reads on in order", async () => {
    const redis = await redisServer();
    const connection = await open(redis.url, { commandTimeoutMs: 300 });
    const admin = control(redis.url);
    await admin.call("CLIENT", "PAUSE", "1000", "ALL");
    const started = Date.now();
    await expect(connection.call(["ECHO", "late"])).rejects.toThrow("Redis did not answer within 300 ms");
    expect(Date.now() - started).toBeLessThan(900);
    await admin.call("CLIENT", "UNPAUSE");
    // The late reply to the first ECHO is read and dropped: this one gets its own.
    expect(await connection.call(["ECHO", "next"])).toBe("next");
    expect(connection.ready).toBe(true);
  });

  it("replaces a connection that stops answering altogether, and says so", async () => {
    const redis = await redisServer();
    const events: string[] = [];
    const connection = await open(redis.url, { commandTimeoutMs: 100, onDown: (error) => events.push(`down: ${error.message}`), onUp: () => events.push("up") });
    const admin = control(redis.url);
    await admin.call("CLIENT", "PAUSE", "1500", "WRITE");
    await expect(connection.call(["SET", "k", "v"])).rejects.toThrow(/did not answer within 100 ms/);
    await expect.poll(() => events, { timeout: 3_000 }).toEqual([expect.stringMatching(/^down: Redis has not answered for \d+ ms$/), "up"]);
    await admin.call("CLIENT", "UNPAUSE");
    expect(await connection.call(["SET", "k", "v2"])).toBe("OK");
  });

  it("fails at once while Redis is down, says so once, and reconnects by itself", async () => {
    const redis = await redisServer();
    const events: string[] = [];
    const connection = await open(redis.url, { onDown: () => events.push("down"), onUp: () => events.push("up") });
    await redis.down();
    await expect.poll(() => events).toEqual(["down"]);
    const started = Date.now();
    await expect(connection.call(["PING"])).rejects.toThrow("not connected to Redis (reconnecting)");
    expect(Date.now() - started).toBeLessThan(50);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events).toEqual(["down"]);
    await redis.up();
    await expect.poll(() => events, { timeout: 5_000 }).toEqual(["down", "up"]);
    expect(await connection.call(["PING"])).toBe("PONG");
  });

  it("quits after the commands already sent are answered, and takes no more", async () => {
    const redis = await redisServer();
    const connection = await openRespConnection(redis.url, OPTIONS);
    const sent = [connection.call(["SET", "a", "1"]), connection.call(["INCR", "a"]), connection.call(["GET", "a"])];
    await connection.quit();
    expect(await Promise.all(sent)).toEqual(["OK", 2, "2"]);
    await expect(connection.call(["PING"])).rejects.toThrow("the connection to Redis is closed");
  });
});

describe("rediss:// (TLS)", () => {
  it("serves over a Redis reached with TLS, the certificate checked against NODE_EXTRA_CA_CERTS, and refuses an untrusted one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "petstore-redis-tls-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
    await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"]);
    const tlsPort = await unusedTestPort();
    const redis = await redisServer({
      tlsPort,
      extraArgs: ["--tls-port", String(tlsPort), "--tls-cert-file", cert, "--tls-key-file", key, "--tls-ca-cert-file", cert, "--tls-auth-clients", "no"],
    });
    expect(redis.url).toBe(`rediss://localhost:${tlsPort}`);

    const server = await startServeProcess({ args: ["--redis", `${redis.url}/2`], env: { NODE_EXTRA_CA_CERTS: cert } });
    cleanups.push(() => server.stop("SIGKILL"));
    const response = await fetch(`${server.baseUrl}/pets`, { headers: { authorization: `Bearer ${server.adminKey}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);

    await expect(startServeProcess({ args: ["--redis", redis.url], env: { NODE_EXTRA_CA_CERTS: undefined } })).rejects.toThrow(
      /cannot connect to Redis rediss:\/\/localhost:\d+: self[- ]signed certificate/,
    );
  });
});
