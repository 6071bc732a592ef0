// An attacker's open event stream against every way its credential stops working, over both
// engines (the "lowdb" and "postgres" vitest projects run this file): each stream, opened with
// a header or a ticket, ends within a second of its key being rotated without grace, past its
// rotation's grace, expired or banned, and on another instance over PostgreSQL (a revocation
// ended them already: test/server/events.test.ts). Then tickets: forged, far-future, spent.
import { createHmac, hash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_STREAMS_PER_KEY } from "../../src/contract/events.js";
import { expectError } from "../helpers/assertions.js";
import { openSse, type SseStream } from "../helpers/sse-client.js";
import { testBackend } from "../helpers/test-backend.js";
import { createKey, startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

/** The bound the issue sets, plus room for a loaded two-core machine. */
const ENDS_WITHIN_MS = 1_500;

const clock = testClock();
/** What every instance of one API is given (PETSTORE_TICKET_SECRET): here, as if it had leaked. */
const TICKET_SECRET = "the ticket secret of these tests, 32+ characters";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: clock.now, ticketSecret: TICKET_SECRET });
});
afterAll(() => server?.close());

async function ticketFor(target: TestServer, key: string): Promise<string> {
  const response = await target.api("/events/tickets", { method: "POST", key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { ticket: string }).ticket;
}

/** A stream opened with the key in the header, or with a ticket asked for with it; once subscribed. */
async function openWith(target: TestServer, how: "header" | "ticket", key: string): Promise<SseStream> {
  const stream =
    how === "header"
      ? await openSse(`${target.baseUrl}/events`, key)
      : await openSse(`${target.baseUrl}/events?ticket=${encodeURIComponent(await ticketFor(target, key))}`, null);
  expect(stream.response.status).toBe(200);
  for (let i = 0; i < 100 && stream.retry() === undefined; i++) await new Promise((r) => setTimeout(r, 10));
  return stream;
}

/** How long after `since` the stream ended; fails when it is still open after ENDS_WITHIN_MS plus a margin. */
async function endedAfter(stream: SseStream, since: number): Promise<number> {
  const late = new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ENDS_WITHIN_MS + 3_000));
  const outcome = await Promise.race([stream.ended.then(() => "ended" as const), late]);
  stream.close();
  expect(outcome, "the stream outlived its credential").toBe("ended");
  return Date.now() - since;
}

async function stillOpen(stream: SseStream): Promise<boolean> {
  const outcome = await Promise.race([stream.ended.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1_200))]);
  return outcome;
}

describe.each(["header", "ticket"] as const)("a stream opened with a %s", (how) => {
  it("ends within 1 s of a rotation with no grace (the remedy for a leaked secret); the new secret's stream stays", async () => {
    const { id, key } = await createKey(server, { plan: "pro" });
    const stream = await openWith(server, how, key);
    const rotated = await server.api(`/keys/${id}/rotate`, { json: { graceSeconds: 0 } });
    expect(rotated.status).toBe(200);
    const since = Date.now();
    const fresh = await openWith(server, how, ((await rotated.json()) as { key: string }).key);
    expect(await endedAfter(stream, since)).toBeLessThan(ENDS_WITHIN_MS);
    expect(await stillOpen(fresh)).toBe(true);
    fresh.close();
  });

  it("ends within 1 s of the end of its rotation's grace, and not before", async () => {
    const { id, key } = await createKey(server, { plan: "pro" });
    const stream = await openWith(server, how, key);
    expect((await server.api(`/keys/${id}/rotate`, { json: { graceSeconds: 60 } })).status).toBe(200);
    expect(await stillOpen(stream)).toBe(true);
    clock.advance(61_000);
    expect(await endedAfter(stream, Date.now())).toBeLessThan(ENDS_WITHIN_MS);
  });

  it("ends within 1 s of a second rotation, whatever grace the first gave", async () => {
    const { id, key } = await createKey(server, { plan: "pro" });
    const stream = await openWith(server, how, key);
    expect((await server.api(`/keys/${id}/rotate`, { json: { graceSeconds: 3600 } })).status).toBe(200);
    expect((await server.api(`/keys/${id}/rotate`, { json: { graceSeconds: 3600 } })).status).toBe(200);
    expect(await endedAfter(stream, Date.now())).toBeLessThan(ENDS_WITHIN_MS);
  });

  it("ends within 1 s of its key's expiry", async () => {
    const { key } = await createKey(server, { plan: "pro", expiresAt: new Date(clock.now() + 120_000).toISOString() });
    const stream = await openWith(server, how, key);
    expect(await stillOpen(stream)).toBe(true);
    clock.advance(121_000);
    expect(await endedAfter(stream, Date.now())).toBeLessThan(ENDS_WITHIN_MS);
  });

  it("ends within 1 s of its key's ban (a ban refuses the key everything)", async () => {
    const { key } = await createKey(server, { plan: "enterprise", perMinute: 3, perDay: 1000 });
    const stream = await openWith(server, how, key);
    let last: Response | undefined;
    for (let i = 0; i < 20; i++) {
      last = await server.api("/pets", { key });
      if (last.status === 429 && ((await last.clone().json()) as { code: string }).code === "key_banned") break;
    }
    await expectError(last!, 429, "key_banned");
    expect(await endedAfter(stream, Date.now())).toBeLessThan(ENDS_WITHIN_MS);
  });
});

/** A ticket as the first servers signed it: keyed by the stored hash, which a db copy or a backup holds. */
function ticketFromStoredHash(keyId: string, storedHash: string, expires: number): string {
  const mac = createHmac("sha256", storedHash).update(`petstore event ticket v1|${keyId}|${expires}`).digest("base64url");
  return `evt_${keyId}.${expires}.${mac}`;
}

/** A ticket signed with the server's secret, as someone holding it could write one (the layout of docs/security.md). */
function ticketFromServerSecret(secret: string, keyId: string, secretHash: string, expires: number): string {
  const hmac = (text: string) => createHmac("sha256", secret).update(text).digest();
  const head = Buffer.concat([randomBytes(12), hmac(`petstore event ticket secret v2|${secretHash}`).subarray(0, 4)]);
  const mac = hmac(`petstore event ticket v2|${keyId}|${expires}|${head.toString("base64url")}`).subarray(0, 16);
  return `evt_${keyId}.${expires}.${Buffer.concat([head, mac]).toString("base64url")}`;
}

const nowSeconds = () => Math.floor(clock.now() / 1000);
const withTicket = (ticket: string) => fetch(`${server.baseUrl}/events?ticket=${encodeURIComponent(ticket)}`);

describe("tickets", () => {
  it("a ticket made from a db copy or a backup (the key's stored hash) opens nothing, at any expiry", async () => {
    const { id, key } = await createKey(server, { plan: "pro" });
    const stored = hash("sha256", key, "hex");
    for (const expires of [nowSeconds() + 30, 9_999_999_999]) {
      expect(await expectError(await withTicket(ticketFromStoredHash(id, stored, expires)), 401, "unauthorized")).toBe("the ticket is not valid");
    }
  });

  it("even signed with the server's secret, a ticket whose expiry is later than issue time + 60 s is refused", async () => {
    const { id, key } = await createKey(server, { plan: "pro" });
    const stored = hash("sha256", key, "hex");
    const inTime = await withTicket(ticketFromServerSecret(TICKET_SECRET, id, stored, nowSeconds() + 60));
    expect(inTime.status).toBe(200);
    await inTime.body?.cancel();
    for (const expires of [nowSeconds() + 61, 9_999_999_999]) {
      expect(await expectError(await withTicket(ticketFromServerSecret(TICKET_SECRET, id, stored, expires)), 401, "unauthorized")).toBe("the ticket is not valid");
    }
  });

  it("a ticket opens one stream once: a second use, even at the same moment, is 401", async () => {
    const { key } = await createKey(server, { plan: "pro" });
    const ticket = await ticketFor(server, key);
    const answers = await Promise.all(Array.from({ length: 4 }, () => fetch(`${server.baseUrl}/events?ticket=${ticket}`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401]);
    for (const answer of answers) {
      if (answer.status === 200) await answer.body?.cancel();
      else expect(await expectError(answer, 401, "unauthorized")).toBe("the ticket has been used already (a ticket opens one stream): ask POST /v1/events/tickets for a new one");
    }
  });

  it("a ticket holder cannot get the key banned: every use after the first counts against the holder's address", async () => {
    // A server of its own: the burst gets this client's address banned, which the other cases share.
    const own = await startTestServer({ now: clock.now });
    try {
      const { key } = await createKey(own, { plan: "free" });
      const ticket = await ticketFor(own, key);
      // An invalid filter: the stream is refused after counting, as a prober's burst would be.
      for (let i = 0; i < 130; i++) await (await fetch(`${own.baseUrl}/events?types=nope&ticket=${ticket}`)).body?.cancel();
      const owner = await own.api("/pets", { key });
      expect(owner.status).toBe(200);
      // The ticket's request, its one use, and this one.
      expect(owner.headers.get("x-ratelimit-remaining")).toBe(String(60 - 3));
    } finally {
      await own.close();
    }
  });
});

describe("HEAD /v1/events", () => {
  it("answers the stream's head and frees everything at once: no slot is held after it", async () => {
    const { key } = await createKey(server, { plan: "pro" });
    for (let i = 0; i < MAX_STREAMS_PER_KEY + 3; i++) {
      const head = await fetch(`${server.baseUrl}/events`, { method: "HEAD", headers: { authorization: `Bearer ${key}` } });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(await head.text()).toBe("");
    }
    const streams = await Promise.all(Array.from({ length: MAX_STREAMS_PER_KEY }, () => openWith(server, "header", key)));
    for (const stream of streams) stream.close();
  });
});

if (testBackend() === "postgres") {
  describe("on every instance over PostgreSQL", () => {
    const secret = "a ticket secret shared by both instances, 48 chars";
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      a = await startTestServer({ now: clock.now, ticketSecret: secret });
      b = await startTestServer({ now: clock.now, ticketSecret: secret, db: a.dbPath });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it.each(["header", "ticket"] as const)("a %s stream on B ends within 1 s of a rotation with no grace through A", async (how) => {
      const { id, key } = await createKey(a, { plan: "pro" });
      const stream = await openWith(b, how, key);
      expect((await a.api(`/keys/${id}/rotate`, { json: { graceSeconds: 0 } })).status).toBe(200);
      expect(await endedAfter(stream, Date.now())).toBeLessThan(ENDS_WITHIN_MS);
    });

    it("a ticket from A opens a stream on B once, and then nowhere", async () => {
      const { key } = await createKey(a, { plan: "pro" });
      const ticket = await ticketFor(a, key);
      const first = await openSse(`${b.baseUrl}/events?ticket=${ticket}`, null);
      expect(first.response.status).toBe(200);
      first.close();
      for (const target of [a, b]) await expectError(await fetch(`${target.baseUrl}/events?ticket=${ticket}`), 401, "unauthorized");
    });
  });
}
