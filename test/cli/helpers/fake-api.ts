// A stand-in for a third party's server (a proxy, a rate limiter) on port 0: it answers
// with scripted responses, so behaviour the real server only shows over minutes
// (429 then success, 502, timeouts) is tested in milliseconds.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is a string. */
  body?: unknown;
  /** Never answer: for timeouts. */
  hang?: boolean;
}

export interface FakeApi {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Answers the n-th request with `responses[n]`, repeating the last one when the script runs out. */
export async function startFakeApi(responses: FakeResponse[] | ((request: RecordedRequest) => FakeResponse)): Promise<FakeApi> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const recorded = await record(req);
    requests.push(recorded);
    const response = typeof responses === "function" ? responses(recorded) : responses[Math.min(requests.length, responses.length) - 1];
    if (!response || response.hang) return;
    send(res, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A base URL on a loopback port where nothing listens (it was free a moment ago). */
export async function unusedBaseUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

/** The server's Error body for a status. */
export function errorResponse(status: number, code: string, message: string, headers: Record<string, string> = {}): FakeResponse {
  return { status, headers, body: { code, message, status } };
}

async function record(req: IncomingMessage): Promise<RecordedRequest> {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  return { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
}

function send(res: ServerResponse, response: FakeResponse): void {
  const isText = typeof response.body === "string";
  const payload = response.body === undefined ? "" : isText ? (response.body as string) : JSON.stringify(response.body);
  const type = isText ? "text/html" : "application/json";
  res.writeHead(response.status, { "content-type": type, ...response.headers });
  res.end(payload);
}
