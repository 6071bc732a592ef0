// A server that misbehaves on purpose, for the client's end-to-end tests: node:http on 127.0.0.1,
// port 0. The first path segment names the misbehaviour, so each case is a base URL of its own
// (`http://127.0.0.1:PORT/huge/v1`); every request is recorded, and the bytes of body each
// answer got out are counted, so a test can prove the client stopped reading.
import { afterAll, beforeAll } from "vitest";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface HostileRequest {
  path: string;
  headers: IncomingMessage["headers"];
}

export interface HostileServer {
  origin: string;
  /** The base URL of one misbehaviour: `${origin}/${name}/v1`. */
  baseUrl(name: string): string;
  requests: HostileRequest[];
  /** Body bytes written to sockets so far, all answers together. */
  bytesSent(): number;
  close(): Promise<void>;
}

/** What the redirect and Link cases point to: another origin (another port on loopback). */
export interface HostileOptions {
  otherOrigin: string;
}

type Behaviour = (req: IncomingMessage, res: ServerResponse, ctx: BehaviourContext) => void;
interface BehaviourContext {
  self: string;
  other: string;
  count: (bytes: number) => void;
}

const PET = { id: 1, name: "Rex", categoryId: 1, status: "available" };
const GIB = 1024 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, " ");

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};
const rateLimited = (retryAfter: string): Behaviour => (_req, res) =>
  json(res, 429, { code: "rate_limited", message: "Too many requests", status: 429 }, { "retry-after": retryAfter });

const BEHAVIOURS: Record<string, Behaviour> = {
  // 1 GiB of JSON whitespace after "[", written as the socket drains: never in memory.
  huge: (_req, res, ctx) => streamBody(res, GIB, ctx),
  // The headers at once, then one byte a second.
  drip: (_req, res, ctx) => drip(res, ctx),
  "invalid-json": (_req, res) => json(res, 200, '[{"id": 1, "name": "Rex",'),
  "object-not-list": (_req, res) => json(res, 200, { pets: [PET] }),
  "pet-without-id": (req, res) => json(res, 200, req.url?.includes("/pets/") ? { name: "Rex", categoryId: 1, status: "available" } : [{ name: "Rex" }]),
  "wrong-content-type": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>Welcome to nginx!</title>");
  },
  "empty-200": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "0" });
    res.end();
  },
  "redirect-other-host": (req, res, ctx) => {
    res.writeHead(307, { location: `${ctx.other}/v1${req.url?.replace(/^\/[^/]+\/v1/, "")}` });
    res.end();
  },
  "redirect-loop": (req, res) => {
    res.writeHead(302, { location: req.url ?? "/" });
    res.end();
  },
  "retry-after-10-years": rateLimited(String(10 * 365 * 24 * 3600)),
  "retry-after-negative": rateLimited("-5"),
  "retry-after-past": rateLimited("Sun, 06 Nov 1994 08:49:37 GMT"),
  "retry-after-garbage": rateLimited("soon, probably"),
  "link-other-host": (_req, res, ctx) => json(res, 200, [PET], { link: `<${ctx.other}/v1/pets?cursor=stolen>; rel="next"` }),
  "link-loop": (req, res, ctx) => json(res, 200, [PET], { link: `<${ctx.self}${req.url}>; rel="next"` }),
  "escape-name": (_req, res) => json(res, 200, [{ ...PET, name: "Rex\u001b]0;pwned\u0007\u001b[2J\u009b31m" }]),
  "giant-error": (_req, res) => json(res, 400, { code: "validation_failed", message: "x".repeat(10 * 1024 * 1024), status: 400 }),
  "escape-error": (_req, res) =>
    json(res, 400, { code: "validation_failed\u001b[2J", message: ESCAPE_MESSAGE, status: 400 }),
  // The event stream refused for a while (503): the client reconnects and says why.
  "escape-stream": (_req, res) => json(res, 503, { code: "unavailable", message: ESCAPE_MESSAGE, status: 503 }),
  // Every create refused with a message to print: `pets import` reports each failed line.
  "escape-create": (_req, res) => json(res, 422, { code: "validation_failed", message: ESCAPE_MESSAGE, status: 422 }),
};

/** A message that would clear the screen, retitle the window, colour and overwrite text if printed raw. */
export const ESCAPE_MESSAGE = "bad\u001b[2J\u001b]0;pwned\u0007 \u001b[31mred\u001b[0m\rfake\nline2\u0008\u009b1mend\u202e";

export async function startHostileServer(options: HostileOptions): Promise<HostileServer> {
  const requests: HostileRequest[] = [];
  let sent = 0;
  const sockets = new Set<Socket>();
  let self = "";
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", headers: req.headers });
    const name = /^\/([^/]+)\//.exec(req.url ?? "")?.[1] ?? "";
    const behaviour = BEHAVIOURS[name];
    if (!behaviour) return json(res, 404, { code: "not_found", message: `no behaviour ${name}`, status: 404 });
    behaviour(req, res, { self, other: options.otherOrigin, count: (bytes) => (sent += bytes) });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin: self,
    baseUrl: (name) => `${self}/${name}/v1`,
    requests,
    bytesSent: () => sent,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function streamBody(res: ServerResponse, total: number, ctx: BehaviourContext): void {
  res.writeHead(200, { "content-type": "application/json", "content-length": String(total) });
  let left = total - 1;
  res.write("[");
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const chunk = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      left -= chunk.length;
      ctx.count(chunk.length);
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    if (left === 0) res.end();
  };
  res.once("close", () => (left = 0));
  pump();
}

function drip(res: ServerResponse, ctx: BehaviourContext): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.flushHeaders();
  const body = JSON.stringify([PET]);
  let at = 0;
  const timer = setInterval(() => {
    if (res.destroyed || at >= body.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    ctx.count(1);
    res.write(body[at++]);
  }, 1000);
  res.once("close", () => clearInterval(timer));
}

export interface Recorder {
  origin: string;
  requests: HostileRequest[];
  close(): Promise<void>;
}

/**
 * For a test file: the hostile server and the other origin it points to, started before its tests
 * and closed after; read `servers.hostile` and `servers.other` inside the tests.
 */
export function useHostileServers(): { hostile: HostileServer; other: Recorder } {
  const servers = {} as { hostile: HostileServer; other: Recorder };
  beforeAll(async () => {
    servers.other = await startRecorder();
    servers.hostile = await startHostileServer({ otherOrigin: servers.other.origin });
  });
  afterAll(async () => {
    await servers.hostile.close();
    await servers.other.close();
  });
  return servers;
}

/** A plain recorder on another port: the "other host" that must never see the key. */
export async function startRecorder(): Promise<Recorder> {
  const requests: HostileRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", headers: req.headers });
    json(res, 200, [PET]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // Another port is another origin; the same address, so a request that leaked would arrive.
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
