// A webhook receiver on 127.0.0.1 and port 0 that records every request and answers as the test
// scripts it: a status (with headers), or never (a dead receiver that accepts connections).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A status (with headers and body, after `delayMs`), or never an answer. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | "hang";

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** How the next requests are answered; 200 by default. */
  answer(next: Answer | ((received: Received) => Answer)): void;
  /** Resolves once `count` requests have arrived; fails after `ms`. */
  waitFor(count: number, ms?: number): Promise<Received[]>;
  /** Requests left hanging ("hang") whose connection the sender closed before any answer. */
  cutOff(): number;
  close(): Promise<void>;
}

export async function startReceiver(path = "/hook"): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  let answer: Answer | ((received: Received) => Answer) = { status: 200, body: "ok" };
  let cutOff = 0;
  let closing = false;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(entry);
      const chosen = typeof answer === "function" ? answer(entry) : answer;
      if (chosen === "hang") {
        hanging.add(response);
        response.once("close", () => {
          if (!closing) cutOff++;
        });
        return;
      }
      const send = () => response.writeHead(chosen.status, chosen.headers).end(chosen.body ?? "");
      if (chosen.delayMs) setTimeout(send, chosen.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer: (next) => (answer = next),
    waitFor: async (count, ms = 10_000) => {
      for (const started = Date.now(); received.length < count; ) {
        if (Date.now() - started > ms) throw new Error(`the receiver got ${received.length} requests, not ${count}, within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received;
    },
    cutOff: () => cutOff,
    close: async () => {
      closing = true;
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
