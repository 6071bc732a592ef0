// Slow, stalled and huge clients. The deadlines are checked through listenStrict with short
// values passed in (the app on the memory engine, a real listener); the header deadline once at
// its real value, and the size limits, against the built `petstore serve`.
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import { createApp } from "../../src/server/app.js";
import { environmentAdminKey } from "../../src/server/keys/admin-keys.js";
import { listenStrict, type HttpListener } from "../../src/server/listen.js";
import { createLogger } from "../../src/server/request-log.js";
import { openMemoryStore } from "../../src/store/memory/open-memory-store.js";
import { startServeProcess, TEST_ADMIN_KEY, type ServeProcess } from "../helpers/serve-process.js";
import { expectErrorAnswer } from "./http-answers.js";
import { open, readAnswer, requestHead, sendRaw, type RawAnswer } from "./http-raw.js";

const ADMIN = TEST_ADMIN_KEY;
const SHORT = { headersMs: 600, requestMs: 1_500, keepAliveMs: 400, maxHeaderBytes: 4096 };
const auth = `Authorization: Bearer ${ADMIN}`;

/** Writes `bytes` one at a time, every `everyMs`, until the answer arrives or the bytes run out. */
async function trickle(socket: Socket, bytes: string, everyMs: number): Promise<RawAnswer | null> {
  const answer = readAnswer(socket, { timeoutMs: 15_000 });
  let at = 0;
  const timer = setInterval(() => {
    if (at < bytes.length && socket.writable) socket.write(bytes[at++]!);
  }, everyMs);
  try {
    return await answer;
  } finally {
    clearInterval(timer);
    socket.destroy();
  }
}

/** Resolves once the server has closed the connection. */
const closed = (socket: Socket) => new Promise<void>((resolve) => socket.once("close", () => resolve()));

function expect408(answer: RawAnswer | null): void {
  expect(answer).not.toBeNull();
  expectErrorAnswer(answer!.status, answer!.headers["content-type"], answer!.body, { status: 408, code: "request_timeout" });
  expect(answer!.headers.connection).toBe("close");
}

describe("deadlines (listenStrict with short ones: headers 0.6 s, request 1.5 s, keep-alive 0.4 s; 4 KiB of headers)", () => {
  let listener: HttpListener;
  let log = "";

  beforeAll(async () => {
    const store = await openMemoryStore();
    const now = Date.now;
    const app = createApp({
      pets: store.pets,
      keys: store.keys,
      orders: store.orders,
      webhooks: store.webhooks,
    deliveries: store.deliveries,
      idempotency: store.idempotency,
      limiter: new MemoryRateLimiter({ now }),
      limitsOf: () => ({ perMinute: 1_000_000, perDay: 1_000_000 }),
      anonymousLimits: { perMinute: 1_000_000, perDay: 1_000_000 },
      environmentAdmin: environmentAdminKey(ADMIN, now),
      logger: createLogger({ write: (chunk: string) => (log += chunk) }, { quiet: true, now }),
      now,
    });
    listener = await listenStrict(app, { port: 0, host: "127.0.0.1", limits: SHORT });
  });

  afterAll(async () => {
    await listener?.close(1_000);
    // A body cut short is the client's fault, not an unexpected error with a stack.
    expect(log).not.toMatch(/error:/);
  });

  async function expectStillServing(): Promise<void> {
    const answer = await sendRaw(listener.origin, requestHead("GET /v1/pets HTTP/1.1", [auth]));
    expect(answer?.status).toBe(200);
  }

  it("headers trickled slower than the header deadline: 408 request_timeout with the Error body, then closed", async () => {
    const socket = await open(listener.origin);
    expect408(await trickle(socket, requestHead("GET /v1/pets HTTP/1.1", [auth, `X-Padding: ${"p".repeat(200)}`]), 20));
    await expectStillServing();
  });

  it("the deadlines and the head size given are the ones applied and quoted", async () => {
    const socket = await open(listener.origin);
    const late = await trickle(socket, requestHead("GET /v1/pets HTTP/1.1", [auth, `X-Padding: ${"p".repeat(200)}`]), 20);
    expect(JSON.parse(late!.body).message).toBe("the request did not arrive in time: headers within 0.6 s, the whole request within 1.5 s");
    const head = (padding: number) => requestHead("GET /v1/pets HTTP/1.1", [auth, `X-Padding: ${"p".repeat(padding)}`]);
    expect((await sendRaw(listener.origin, head(3000)))?.status).toBe(200);
    const big = (await sendRaw(listener.origin, head(4096)))!;
    expectErrorAnswer(big.status, big.headers["content-type"], big.body, { status: 431, code: "headers_too_large" });
    expect(JSON.parse(big.body).message).toBe("the request headers are larger than 4 KiB");
  });

  it("a body that stalls halfway: 408 request_timeout with the Error body, and the server stays up", async () => {
    const socket = await open(listener.origin);
    const answer = readAnswer(socket, { timeoutMs: 15_000 });
    socket.write(requestHead("POST /v1/pets HTTP/1.1", [auth, "Content-Type: application/json", "Content-Length: 100"]));
    socket.write('{"name":"slow",');
    expect408(await answer);
    socket.destroy();
    await expectStillServing();
  });

  it("a body trickled slower than the request deadline: 408, never a half-written answer", async () => {
    const socket = await open(listener.origin);
    const body = JSON.stringify({ name: "trickled", categoryId: 1 });
    const head = requestHead("POST /v1/pets HTTP/1.1", [auth, "Content-Type: application/json", `Content-Length: ${body.length}`]);
    socket.write(head);
    expect408(await trickle(socket, body, 100));
    await expectStillServing();
  });

  it("a client that sends half a body and hangs up: no answer is owed, nothing is logged as an error, the server stays up", async () => {
    for (let i = 0; i < 20; i++) {
      const socket = await open(listener.origin);
      socket.write(requestHead("POST /v1/pets HTTP/1.1", [auth, "Content-Type: application/json", "Content-Length: 1000"]));
      socket.write('{"name":"gone"');
      await new Promise((resolve) => setTimeout(resolve, 5));
      socket.destroy();
    }
    await expectStillServing();
  });

  it("an idle keep-alive connection is closed by the server after the keep-alive deadline", async () => {
    const socket = await open(listener.origin);
    const answer = readAnswer(socket);
    socket.write(requestHead("GET /healthz HTTP/1.1"));
    expect((await answer)?.status).toBe(200);
    await closed(socket);
    expect(socket.readableEnded || socket.destroyed).toBe(true);
  });
});

/**
 * A built `petstore serve` for one describe block: it must stop with exit 0 and log no error.
 * Read it inside the tests (`server.current`), once beforeAll has run.
 */
function servedForThisBlock(): { readonly current: ServeProcess } {
  const holder: { current: ServeProcess } = { current: undefined as unknown as ServeProcess };
  beforeAll(async () => {
    holder.current = await startServeProcess({ args: ["--quiet"] });
  });
  afterAll(async () => {
    expect(await holder.current?.stop()).toBe(0);
    expect(holder.current.stderr()).not.toMatch(/error:/);
  });
  return holder;
}

describe.concurrent("the real server's limits (petstore serve)", () => {
  const server = servedForThisBlock();

  it("headers trickled for longer than 10 s get 408 request_timeout (Node alone would wait up to 40 s)", async () => {
    const socket = await open(server.current.origin);
    const head = requestHead("GET /v1/pets HTTP/1.1", [auth, ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${"s".repeat(20)}`)]);
    expect408(await trickle(socket, head, 10));
  }, 20_000);

  it("a 20 KiB header: 431 headers_too_large with the Error body", async () => {
    const answer = await sendRaw(server.current.origin, requestHead("GET /v1/pets HTTP/1.1", [auth, `X-Big: ${"b".repeat(20 * 1024)}`]));
    expectErrorAnswer(answer!.status, answer!.headers["content-type"], answer!.body, { status: 431, code: "headers_too_large" });
  });

  it("Content-Length of 10 MB: 413 payload_too_large before a byte of the body is sent", async () => {
    const socket = await open(server.current.origin);
    const answer = readAnswer(socket);
    socket.write(requestHead("POST /v1/pets HTTP/1.1", [auth, "Content-Type: application/json", `Content-Length: ${10 * 1024 * 1024}`]));
    const got = await answer;
    socket.destroy();
    expectErrorAnswer(got!.status, got!.headers["content-type"], got!.body, { status: 413, code: "payload_too_large" });
  });

  it("a chunked body past 64 KiB that never ends: 413 while it streams, so the server never waited for the rest", async () => {
    const socket = await open(server.current.origin);
    const answer = readAnswer(socket);
    socket.write(requestHead("POST /v1/pets HTTP/1.1", [auth, "Content-Type: application/json", "Transfer-Encoding: chunked"]));
    for (let i = 0; i < 8; i++) socket.write(`4000\r\n${" ".repeat(0x4000)}\r\n`);
    const got = await answer;
    socket.destroy();
    expectErrorAnswer(got!.status, got!.headers["content-type"], got!.body, { status: 413, code: "payload_too_large" });
    expect(got!.headers.connection).toBe("close");
  });

  it("a 10 MB chunked body: a complete 413 arrives before the client is done, and the server serves the next request", async () => {
    const socket = await open(server.current.origin);
    const answer = readAnswer(socket, { timeoutMs: 15_000 });
    socket.write(requestHead("POST /v1/pets HTTP/1.1", [auth, "Content-Type: application/json", "Transfer-Encoding: chunked"]));
    const total = 10 * 1024 * 1024;
    const chunk = `4000\r\n${" ".repeat(0x4000)}\r\n`;
    let sent = 0;
    let answered = false;
    const pump = () => {
      while (!answered && socket.writable && sent < total) {
        sent += 0x4000;
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
      if (!answered && socket.writable) socket.write("0\r\n\r\n");
    };
    socket.on("error", () => undefined);
    pump();
    const got = await answer;
    answered = true;
    socket.destroy();
    expectErrorAnswer(got!.status, got!.headers["content-type"], got!.body, { status: 413, code: "payload_too_large" });
    expect(sent).toBeLessThan(total);
    const next = await sendRaw(server.current.origin, requestHead("GET /v1/pets HTTP/1.1", [auth]));
    expect(next?.status).toBe(200);
  });
});

// Alone, not beside the concurrent tests above: 50 connections torn down at once would race
// their timing-sensitive 413s.
describe("clients that hang up mid-request (petstore serve)", () => {
  const server = servedForThisBlock();

  it("clients that hang up while their create is being written: the server stays up and exits cleanly", async () => {
    // listhen's connection tracker (http-shutdown) runs on every finished response; a response
    // whose client is gone must not take the process down with it.
    const body = '{"name":"gone","categoryId":1}';
    const post = requestHead("POST /v1/pets HTTP/1.1", [auth, "Content-Type: application/json", `Content-Length: ${body.length}`]) + body;
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const socket = await open(server.current.origin);
        socket.write(post);
        await new Promise((resolve) => setTimeout(resolve, i % 5));
        socket.destroy();
      }),
    );
    const answer = await sendRaw(server.current.origin, requestHead("GET /v1/pets HTTP/1.1", [auth]));
    expect(answer?.status).toBe(200);
  });
});
