// The real server in process as the CLI's wire: each request goes through app.fetch (its routing,
// rate limits and idempotency), with no socket, on the test's clock. `stop()` plays a server
// killed with -9: from then on every attempt fails as a refused connection, as undici reports it,
// until `start()`.
import type { H3 } from "h3";
import type { Attempt, Transport, WireRequest } from "../../../src/cli/http.js";
import { networkFailure } from "../../../src/cli/internal/hints.js";
import type { InMemoryApi, SeenRequest } from "./in-memory-api.js";

export interface AppApi extends InMemoryApi {
  /** The server's answers, in order: what it counted, not what the client made of them. */
  answers: { method: string; path: string; status: number }[];
  /** Attempts made after stop(), each refused. */
  refused: number;
  stop(): void;
  /** The server is back, with its data (a restart). */
  start(): void;
}

export function appApi(app: H3, settings: { baseUrl: string; timeoutMs: number }): AppApi {
  const requests: SeenRequest[] = [];
  const answers: AppApi["answers"] = [];
  let down = false;
  const api = {
    requests,
    answers,
    refused: 0,
    stop: () => {
      down = true;
    },
    start: () => {
      down = false;
    },
    transport: {
      async send(wire: WireRequest): Promise<Attempt> {
        const url = new URL(wire.url);
        const path = `${url.pathname}${url.search}`;
        requests.push({ method: wire.method, path, headers: wire.headers, body: wire.body === undefined ? undefined : JSON.parse(wire.body) });
        if (down) {
          api.refused++;
          const error = Object.assign(new Error(`connect ECONNREFUSED ${url.host}`), { code: "ECONNREFUSED" });
          return { kind: "failure", ...networkFailure(error, false, wire.url, settings) };
        }
        const response = await app.fetch(new Request(wire.url, { method: wire.method, headers: wire.headers, body: wire.body }));
        answers.push({ method: wire.method, path: url.pathname, status: response.status });
        const headers = Object.fromEntries([...response.headers].map(([name, value]) => [name.toLowerCase(), value]));
        return { kind: "answer", status: response.status, headers, text: await response.text() };
      },
      close: async () => {},
    } satisfies Transport,
  };
  return api;
}
