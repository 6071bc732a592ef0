// `petstore events --forward-to` as a developer runs it: the built CLI following a real server and
// POSTing each event to a real local receiver (node:http on port 0), whose requests the
// standardwebhooks package verifies; retries while the receiver fails; Ctrl-C; bad flags.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import pkg from "../../../package.json" with { type: "json" };
import { MAX_PENDING_EVENTS } from "../../../src/cli/internal/forward-queue.js";
import { openSse } from "../../helpers/sse-client.js";
import { BIN, startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { startFakeApi, unusedBaseUrl } from "../helpers/fake-api.js";
import { tempHome } from "../helpers/run-cli.js";

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

interface Receiver {
  url: string;
  requests: Received[];
  /** While set, each request is answered only once it settles. */
  hold?: Promise<void>;
  close(): Promise<void>;
}

/** A local receiver answering `statusFor(n)` to its n-th request (from 1). */
async function startReceiver(statusFor: (n: number) => number = () => 200): Promise<Receiver> {
  const requests: Received[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += String(chunk);
    await receiver.hold;
    const status = statusFor(requests.length + 1);
    requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, status });
    res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "not now");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return receiver;
}

interface Forwarding {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr", timeoutMs?: number): Promise<RegExpExecArray>;
  exit: Promise<number | null>;
}

async function forward(args: string[], env: Record<string, string>, stdin?: string): Promise<Forwarding> {
  const home = await tempHome();
  const child = spawn(process.execPath, [BIN, "events", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: home, PETSTORE_CONFIG: `${home}/config.json`, NO_COLOR: "1", TZ: "UTC", ...env },
    stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (stdin !== undefined) child.stdin?.end(stdin);
  const out = { stdout: "", stderr: "" };
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out.stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (out.stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exit,
    waitFor: async (pattern, stream = "stdout", timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(out[stream]);
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`no ${pattern} on ${stream} within ${timeoutMs} ms:\n${out.stdout}\n${out.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

const envFor = (server: ServeProcess) => ({ PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey });
async function api(server: ServeProcess, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const type = method === "PATCH" ? "application/merge-patch+json" : "application/json";
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": type },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.status === 204 ? {} : ((await response.json()) as Record<string, unknown>);
}

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await new Promise((resolve) => setTimeout(resolve, 25))) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
  }
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
async function serverAndReceiver(statusFor?: (n: number) => number): Promise<{ server: ServeProcess; receiver: Receiver }> {
  const server = await startServeProcess();
  cleanups.push(() => server.stop());
  const receiver = await startReceiver(statusFor);
  cleanups.push(() => receiver.close());
  return { server, receiver };
}
/** Ends the forwarder with Ctrl-C, as a person would; resolves with its exit code. */
function interrupt(forwarding: Forwarding): Promise<number | null> {
  forwarding.child.kill("SIGINT");
  return forwarding.exit;
}

describe("petstore events --forward-to", () => {
  it("POSTs each event, as the stream carries it, signed with the secret it prints, in order; Ctrl-C exits 0", async () => {
    const { server, receiver } = await serverAndReceiver();
    const rex = await api(server, "POST", "/pets", { name: "Rex", categoryId: 2 });
    const forwarding = await forward(["--forward-to", receiver.url, "--since", "0"], envFor(server));
    const [, secret] = await forwarding.waitFor(/^Webhook signing secret: (whsec_\S+)$/m, "stderr");
    const tom = await api(server, "POST", "/pets", { name: "Tom", categoryId: 3 });
    await api(server, "PATCH", `/pets/${String(tom.id)}`, { status: "sold" });
    await api(server, "DELETE", `/pets/${String(rex.id)}`);
    await until(() => receiver.requests.length === 4, "four deliveries");
    expect(await interrupt(forwarding)).toBe(0);

    // The bodies are the stream's data lines, character for character.
    const stream = await openSse(`${server.baseUrl}/events`, server.adminKey, { "last-event-id": "0" });
    const carried = [];
    for (let n = 0; n < 4; n++) carried.push((await stream.next()).data);
    stream.close();
    expect(receiver.requests.map((request) => request.body)).toEqual(carried);

    const verified = receiver.requests.map((request) => new Webhook(secret!).verify(request.body, request.headers as Record<string, string>) as { type: string; id: number; data: unknown });
    expect(verified.map((event) => [event.type, event.id])).toEqual([
      ["pet.created", 1],
      ["pet.created", 2],
      ["pet.updated", 3],
      ["pet.deleted", 4],
    ]);
    expect(verified[0]!.data).toEqual(rex);
    for (const [n, request] of receiver.requests.entries()) {
      expect(request).toMatchObject({ method: "POST", path: "/hook" });
      expect(request.headers).toMatchObject({ "content-type": "application/json", "user-agent": `petstore/${pkg.version}`, "webhook-id": `evt_${n + 1}` });
      expect(request.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
      // The API key stays with the API.
      expect(request.headers.authorization).toBeUndefined();
      expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(request.body, request.headers as Record<string, string>)).toThrow();
    }

    const records = forwarding.stdout().trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((record) => [record.eventId, record.webhookId, record.status, record.outcome, record.attempt])).toEqual([
      [1, "evt_1", 200, "delivered", 1],
      [2, "evt_2", 200, "delivered", 1],
      [3, "evt_3", 200, "delivered", 1],
      [4, "evt_4", 200, "delivered", 1],
    ]);
    expect(records[2]).toMatchObject({ type: "pet.updated", time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), ms: expect.any(Number) });
    expect(forwarding.stderr()).toBe(`Forwarding events to ${receiver.url} (Ctrl-C to quit)\nWebhook signing secret: ${secret}\n`);
  });

  it("retries a receiver answering 503 with backoff, the stream keeping its place: each event accepted once, in order", async () => {
    const { server, receiver } = await serverAndReceiver((n) => (n <= 3 ? 503 : 200));
    for (const name of ["A", "B"]) await api(server, "POST", "/pets", { name, categoryId: 1 });
    const forwarding = await forward(["--forward-to", receiver.url, "--since", "0"], envFor(server));
    await forwarding.waitFor(/"status":503.*\n.*"status":503/, "stdout");
    await api(server, "POST", "/pets", { name: "C", categoryId: 1 });
    await until(() => receiver.requests.filter((request) => request.status === 200).length === 3, "three accepted", 20_000);
    expect(await interrupt(forwarding)).toBe(0);
    expect(receiver.requests.map((request) => [request.headers["webhook-id"], request.status])).toEqual([
      ["evt_1", 503],
      ["evt_1", 503],
      ["evt_1", 503],
      ["evt_1", 200],
      ["evt_2", 200],
      ["evt_3", 200],
    ]);
    const outcomes = forwarding.stdout().trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(outcomes.map((record) => [record.eventId, record.attempt, record.outcome])).toEqual([
      [1, 1, "retrying"],
      [1, 2, "retrying"],
      [1, 3, "retrying"],
      [1, 4, "delivered"],
      [2, 1, "delivered"],
      [3, 1, "delivered"],
    ]);
    expect(outcomes[0]!.retryInMs).toBeGreaterThanOrEqual(500);
    expect(forwarding.stderr()).not.toMatch(/Connection lost|Stopped/);
  }, 40_000);

  it("a receiver stuck while more events happen than it holds in memory still gets each one, once, in order", async () => {
    // The receiver holds its first request unanswered until the events are all made.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { server, receiver } = await serverAndReceiver();
    const forwarding = await forward(["--forward-to", receiver.url, "--timeout", "120000"], envFor(server));
    await forwarding.waitFor(/^Webhook signing secret/m, "stderr");
    receiver.hold = held;
    // More than MAX_PENDING_EVENTS: the stream waits unread while the queue is full.
    const total = MAX_PENDING_EVENTS + 100;
    for (let start = 0; start < total; start += 50) {
      await Promise.all(Array.from({ length: Math.min(50, total - start) }, (_, n) => api(server, "POST", "/pets", { name: `P${start + n}`, categoryId: 1 })));
    }
    expect(forwarding.stdout()).toBe("");
    release();
    await until(() => receiver.requests.filter((request) => request.status === 200).length === total, `${total} accepted`, 60_000);
    expect(await interrupt(forwarding)).toBe(0);
    const accepted = receiver.requests.filter((request) => request.status === 200).map((request) => request.headers["webhook-id"]);
    expect(accepted).toEqual(Array.from({ length: total }, (_, n) => `evt_${n + 1}`));
    expect(forwarding.stderr()).not.toMatch(/missed|Stopped/);
  }, 90_000);

  it("Ctrl-C while it waits to retry a receiver that is down ends it at once, exit 0, saying what was not delivered", async () => {
    const server = await startServeProcess();
    cleanups.push(() => server.stop());
    await api(server, "POST", "/pets", { name: "Lost", categoryId: 1 });
    const forwarding = await forward(["--forward-to", `${await unusedBaseUrl()}/hook`, "--since", "0"], envFor(server));
    // The third wait is 2 to 4 s long: an exit well before it ends was not waiting for it.
    const [, seconds] = await forwarding.waitFor(/"attempt":3,.*"retryInMs":(\d+)/, "stdout");
    const interrupted = Date.now();
    expect(await interrupt(forwarding)).toBe(0);
    expect(Date.now() - interrupted).toBeLessThan(Number(seconds) - 500);
    expect(forwarding.stdout()).toMatch(/"error":"connection refused by http:\/\/127\.0\.0\.1:\d+"/);
    expect(forwarding.stderr()).toMatch(/\nStopped: event 1 was not delivered; to send it, run again with --since 0\.\n$/);
  }, 30_000);

  it("--secret - reads the secret from stdin: the deliveries verify with it, and it is never printed", async () => {
    const { server, receiver } = await serverAndReceiver();
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    await api(server, "POST", "/pets", { name: "Kit", categoryId: 4 });
    const forwarding = await forward(["--forward-to", receiver.url, "--since", "0", "--secret", "-"], envFor(server), `${secret}\n`);
    await until(() => receiver.requests.length === 1, "one delivery");
    expect(await interrupt(forwarding)).toBe(0);
    const request = receiver.requests[0]!;
    expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({ type: "pet.created", id: 1 });
    expect(forwarding.stderr()).toBe(`Forwarding events to ${receiver.url} (Ctrl-C to quit)\nSigning with the secret given with --secret.\n`);
    expect(forwarding.stdout()).not.toContain(secret.slice(6));
  });

  it.each([
    [["--forward-to", "ftp://127.0.0.1/hook"], /^Error: --forward-to: "ftp:\/\/127\.0\.0\.1\/hook" is not an http or https URL/],
    [["--forward-to", "http://user:pw@127.0.0.1:1/hook"], /^Error: --forward-to: the URL carries a user or password/],
    [["--forward-to", "RECEIVER", "--secret", "not-a-secret"], /^Error: --secret: a signing secret starts with whsec_/],
    [["--forward-to", "RECEIVER", "--secret", `whsec_${randomBytes(8).toString("base64")}`], /^Error: --secret: a signing secret holds 24 to 64 bytes, not 8/],
    [["--secret", `whsec_${randomBytes(32).toString("base64")}`], /^Error: --secret signs what --forward-to sends: give --forward-to too/],
  ])("%j exits 2 before connecting to the API or the receiver", async (args, message) => {
    const fakeApi = await startFakeApi([{ status: 200, body: "" }]);
    cleanups.push(() => fakeApi.close());
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const forwarding = await forward(
      args.map((arg) => (arg === "RECEIVER" ? receiver.url : arg)),
      { PETSTORE_BASE_URL: fakeApi.baseUrl, PETSTORE_API_KEY: "ps_test_key" },
    );
    expect(await forwarding.exit).toBe(2);
    expect(forwarding.stderr()).toMatch(message);
    expect(forwarding.stderr()).not.toMatch(/whsec_\S/);
    expect(forwarding.stdout()).toBe("");
    expect(fakeApi.requests).toEqual([]);
    expect(receiver.requests).toEqual([]);
  });
});
