// The guard at connection time, against real HTTP servers on loopback: a name that resolves to
// a refused address, a literal one, a name that changes its answer after the create-time check,
// and a redirect to a refused address.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BlockList } from "node:net";
import { fetch, interceptors, type Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { checkOutgoingUrl, createGuardedAgent, SsrfRefusedError, type GuardedAgentOptions, type ResolveAll } from "../../../src/support/ssrf/index.js";

interface Receiver {
  port: number;
  hits: string[];
}

const servers: Server[] = [];
const agents: Agent[] = [];

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A real HTTP server on `host`, port 0, recording each request's path; `answer` may redirect. */
async function receiver(host: string, answer: (path: string) => { status: number; location?: string } = () => ({ status: 200 })): Promise<Receiver> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? "");
    const { status, location } = answer(request.url ?? "");
    response.writeHead(status, location ? { location } : {}).end("received");
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, host, ready));
  return { port: (server.address() as AddressInfo).port, hits };
}

const guarded = (options: GuardedAgentOptions = {}) => {
  const agent = createGuardedAgent({ connect: { timeout: 5_000 }, ...options });
  agents.push(agent);
  return agent;
};

/** A resolver answering `answers[n]` at its n-th call (the last one after that). */
const answering = (...answers: string[][]): ResolveAll => {
  let call = 0;
  return async () => (answers[Math.min(call++, answers.length - 1)] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const post = (agent: Agent, origin: string, path = "/hook") => agent.request({ origin, path, method: "POST", body: "{}", headers: { "content-type": "application/json" } });

describe("createGuardedAgent: names", () => {
  it("refuses a name that resolves to 127.0.0.1, and the server there gets nothing", async () => {
    const target = await receiver("127.0.0.1");
    const agent = guarded({ resolveAll: answering(["127.0.0.1"]) });
    const refusal = post(agent, `http://hooks.example.com:${target.port}`);
    await expect(refusal).rejects.toBeInstanceOf(SsrfRefusedError);
    await expect(refusal).rejects.toMatchObject({
      code: "ERR_SSRF_REFUSED",
      hostname: "hooks.example.com",
      address: "127.0.0.1",
      range: "loopback",
      message: "refused to connect to hooks.example.com: it resolves to 127.0.0.1, a loopback address",
    });
    expect(target.hits).toEqual([]);
  });

  it("reaches the same server with allowPrivate", async () => {
    const target = await receiver("127.0.0.1");
    const agent = guarded({ allowPrivate: true, resolveAll: answering(["127.0.0.1"]) });
    const answer = await post(agent, `http://hooks.example.com:${target.port}`);
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.text()).toBe("received");
    expect(target.hits).toEqual(["/hook"]);
  });

  it("refuses localhost through the system resolver, and reaches it with allowPrivate", async () => {
    const target = await receiver("127.0.0.1");
    await expect(post(guarded(), `http://localhost:${target.port}`)).rejects.toMatchObject({ code: "ERR_SSRF_REFUSED", hostname: "localhost", range: "loopback" });
    expect(target.hits).toEqual([]);
    const answer = await post(guarded({ allowPrivate: true }), `http://localhost:${target.port}`);
    expect(answer.statusCode).toBe(200);
    await answer.body.dump();
    expect(target.hits).toEqual(["/hook"]);
  });

  it("refuses a name that was public at the create-time check and resolves to 127.0.0.1 at connect time", async () => {
    const target = await receiver("127.0.0.1");
    const rebinding = answering(["93.184.215.14"], ["127.0.0.1"]);
    const url = `http://rebind.example.com:${target.port}/hook`;
    expect(await checkOutgoingUrl(url, { resolveAll: rebinding })).toMatchObject({ ok: true });
    await expect(post(guarded({ resolveAll: rebinding }), new URL(url).origin)).rejects.toMatchObject({ code: "ERR_SSRF_REFUSED", address: "127.0.0.1" });
    expect(target.hits).toEqual([]);
  });

  it("refuses a name with one refused address among public ones, though a public one could be picked", async () => {
    const target = await receiver("127.0.0.1");
    const agent = guarded({ resolveAll: answering(["93.184.215.14", "127.0.0.1"]) });
    await expect(post(agent, `http://mixed.example.com:${target.port}`)).rejects.toMatchObject({ code: "ERR_SSRF_REFUSED", address: "127.0.0.1" });
    expect(target.hits).toEqual([]);
  });

  it("refuses a name resolving to a mapped loopback address", async () => {
    const target = await receiver("127.0.0.1");
    const agent = guarded({ resolveAll: answering(["::ffff:127.0.0.1"]) });
    await expect(post(agent, `http://mapped.example.com:${target.port}`)).rejects.toThrow(
      "refused to connect to mapped.example.com: it resolves to ::ffff:127.0.0.1 (IPv4 127.0.0.1, mapped), a loopback address",
    );
    expect(target.hits).toEqual([]);
  });

  it("checks https connections the same way (the TLS socket resolves through the guard too)", async () => {
    const agent = guarded({ resolveAll: answering(["10.1.2.3"]) });
    await expect(post(agent, "https://hooks.example.com")).rejects.toMatchObject({ code: "ERR_SSRF_REFUSED", address: "10.1.2.3", range: "private" });
  });

  it("keeps cloud metadata refused with allowPrivate", async () => {
    const agent = guarded({ allowPrivate: true, resolveAll: answering(["169.254.169.254"]) });
    await expect(post(agent, "http://metadata.google.internal")).rejects.toMatchObject({ code: "ERR_SSRF_REFUSED", range: "cloud-metadata" });
    await expect(post(agent, "http://169.254.169.254")).rejects.toMatchObject({ code: "ERR_SSRF_REFUSED", range: "cloud-metadata" });
    await expect(post(agent, "http://[fd00:ec2::254]")).rejects.toMatchObject({ code: "ERR_SSRF_REFUSED", range: "cloud-metadata" });
  });

  it("gives the refusal to fetch as the cause of its failure", async () => {
    const target = await receiver("127.0.0.1");
    const agent = guarded({ resolveAll: answering(["127.0.0.1"]) });
    const failure = await fetch(`http://hooks.example.com:${target.port}/`, { dispatcher: agent }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).cause).toBeInstanceOf(SsrfRefusedError);
    expect(target.hits).toEqual([]);
  });
});

describe("createGuardedAgent: literal addresses (no lookup happens for them)", () => {
  it("refuses 127.0.0.1 and reaches it with allowPrivate", async () => {
    const target = await receiver("127.0.0.1");
    await expect(post(guarded(), `http://127.0.0.1:${target.port}`)).rejects.toMatchObject({
      code: "ERR_SSRF_REFUSED",
      message: "refused to connect to 127.0.0.1, a loopback address",
    });
    expect(target.hits).toEqual([]);
    const answer = await post(guarded({ allowPrivate: true }), `http://127.0.0.1:${target.port}`);
    expect(answer.statusCode).toBe(200);
    await answer.body.dump();
    expect(target.hits).toEqual(["/hook"]);
  });

  it.each([
    ["http://[::1]:9", "::1", "loopback"],
    ["http://[::ffff:7f00:1]:9", "::ffff:7f00:1", "loopback"],
    ["http://10.0.0.1:9", "10.0.0.1", "private"],
    ["http://[64:ff9b::a00:1]:9", "64:ff9b::a00:1", "private"],
    ["http://0.0.0.0:9", "0.0.0.0", "unspecified"],
  ])("refuses %s before connecting", async (origin, address, range) => {
    await expect(post(guarded(), origin)).rejects.toMatchObject({ code: "ERR_SSRF_REFUSED", address, range });
  });
});

describe("createGuardedAgent: redirects", () => {
  // The redirecting receiver is on 127.0.0.2, let through by an allow list; its 302 points at a
  // server on 127.0.0.1, which the same agent refuses.
  async function redirectToLoopback() {
    const target = await receiver("127.0.0.1");
    const location = `http://127.0.0.1:${target.port}/internal`;
    const redirector = await receiver("127.0.0.2", () => ({ status: 302, location }));
    const allow = new BlockList();
    allow.addAddress("127.0.0.2");
    return { target, redirector, location, allow, origin: `http://127.0.0.2:${redirector.port}` };
  }

  it("hands the caller the 302 and never asks the private address", async () => {
    const { target, redirector, location, allow, origin } = await redirectToLoopback();
    const answer = await post(guarded({ allow }), origin);
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe(location);
    await answer.body.dump();
    expect(redirector.hits).toEqual(["/hook"]);
    expect(target.hits).toEqual([]);
  });

  it("hands fetch the 302 too when it is called with redirect: manual", async () => {
    const { target, location, allow, origin } = await redirectToLoopback();
    const answer = await fetch(`${origin}/hook`, { method: "POST", body: "{}", dispatcher: guarded({ allow }), redirect: "manual" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(location);
    await answer.arrayBuffer();
    expect(target.hits).toEqual([]);
  });

  it("refuses the private hop even for a caller that wrongly follows redirects", async () => {
    const { target, allow, origin } = await redirectToLoopback();
    const following = guarded({ allow }).compose(interceptors.redirect({ maxRedirections: 3 }));
    await expect(following.request({ origin, path: "/hook", method: "GET" })).rejects.toMatchObject({ code: "ERR_SSRF_REFUSED", address: "127.0.0.1" });
    expect(target.hits).toEqual([]);
  });

  it("would have reached the target if followed with allowPrivate (so the servers above are reachable)", async () => {
    const { target, origin } = await redirectToLoopback();
    const following = guarded({ allowPrivate: true }).compose(interceptors.redirect({ maxRedirections: 3 }));
    const answer = await following.request({ origin, path: "/hook", method: "GET" });
    expect(answer.statusCode).toBe(200);
    await answer.body.dump();
    expect(target.hits).toEqual(["/internal"]);
  });
});
