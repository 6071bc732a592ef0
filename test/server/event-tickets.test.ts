// Tickets for a browser's EventSource: POST /events/tickets with the key, then GET /events?ticket=
// without Authorization. Only for the stream, only for a minute, only while the key is usable.
import { expectError } from "../helpers/assertions.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TICKET_PATTERN } from "../../src/contract/events.js";
import { redactSecrets } from "../../src/server/keys/secrets.js";
import { openSse } from "../helpers/sse-client.js";
import { createKey, startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

const clock = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
});
afterAll(() => server?.close());

async function ticketFor(key: string): Promise<{ ticket: string; expiresAt: string }> {
  const response = await server.api("/events/tickets", { method: "POST", key });
  expect(response.status).toBe(200);
  return (await response.json()) as { ticket: string; expiresAt: string };
}

const withTicket = (ticket: string, query = "") => server.api(`/events?ticket=${encodeURIComponent(ticket)}${query}`, { key: null });

describe("event-stream tickets", () => {
  it("POST /events/tickets: a ticket of the key, valid 60 s; GET /events?ticket= then streams without Authorization", async () => {
    const { key, id } = await createKey(server, { plan: "pro", name: "browser app" });
    const issued = await ticketFor(key);
    expect(issued.ticket).toMatch(new RegExp(EVENT_TICKET_PATTERN));
    expect(issued.ticket.startsWith(`evt_${id}.`)).toBe(true);
    expect(issued.expiresAt).toBe(new Date(Math.floor(clock.now() / 1000) * 1000 + 60_000).toISOString());
    const stream = await openSse(`${server.baseUrl}/events?types=pet.created&ticket=${issued.ticket}`, null);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(stream.response.headers.get("x-ratelimit-remaining")).not.toBeNull();
      await server.api("/pets", { json: { name: "Rex", categoryId: 1 } });
      const [event] = await stream.events(1);
      expect(event).toMatchObject({ type: "pet.created", data: { name: "Rex", categoryId: 1, status: "available" } });
    } finally {
      stream.close();
    }
  });

  it("an expired ticket, a changed one, or one on another operation: 401 unauthorized", async () => {
    const { key } = await createKey(server, { plan: "pro" });
    const { ticket } = await ticketFor(key);
    const forged = ticket.slice(0, -2) + (ticket.endsWith("AA") ? "BB" : "AA");
    const invalid = await withTicket(forged);
    expect(invalid.status).toBe(401);
    expect(await invalid.json()).toEqual({ code: "unauthorized", message: "the ticket is not valid", status: 401 });
    const elsewhere = await server.api(`/pets?ticket=${ticket}`, { key: null });
    expect(elsewhere.status).toBe(401);
    expect(((await elsewhere.json()) as { message: string }).message).toBe("missing API key: send the header Authorization: Bearer <API key>");
    clock.advance(61_000);
    const expired = await withTicket(ticket);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ code: "unauthorized", message: "the ticket has expired: ask POST /v1/events/tickets for a new one", status: 401 });
  });

  it("a revoked key's ticket opens nothing", async () => {
    const { key, id } = await createKey(server, { plan: "pro" });
    const { ticket } = await ticketFor(key);
    expect((await server.api(`/keys/${id}`, { method: "DELETE" })).status).toBe(204);
    const refused = await withTicket(ticket);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ code: "unauthorized", message: "the API key has been revoked", status: 401 });
  });

  it("the environment's admin key gets tickets too; without a key there is none to get", async () => {
    const { ticket } = await ticketFor(server.adminKey);
    const stream = await openSse(`${server.baseUrl}/events?ticket=${ticket}`, null);
    expect(stream.response.status).toBe(200);
    stream.close();
    expect((await server.api("/events/tickets", { method: "POST", key: null })).status).toBe(401);
  });

  it("a body sent with it is a 400 invalid_body, and no ticket", async () => {
    const response = await server.api("/events/tickets", { method: "POST", json: { types: ["pet.created"] } });
    expect(await expectError(response, 400, "invalid_body")).toBe("POST /v1/events/tickets takes no body");
  });

  it("log lines mask tickets as they mask keys", () => {
    expect(redactSecrets("GET /v1/events?ticket=evt_key_AbCdEfGhIjKlMnOp.1795483620.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ&types=pet.created")).toBe(
      "GET /v1/events?ticket=evt_[redacted]&types=pet.created",
    );
  });
});
