// `--metrics-port`: /metrics on a listener of its own, loopback unless told otherwise, so the
// numbers never reach the API's clients and scrapes never count against the API's rate limits.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { messageOf } from "../../support/error-text.js";
import { listenProblem } from "../internal/listen-failure.js";

const METRICS_FLAGS = { host: "--metrics-host", port: "--metrics-port" };

export interface MetricsListener {
  origin: string;
  close(): Promise<void>;
}

export type Scrape = () => Promise<{ body: string; contentType: string }>;

/** Serves GET /metrics (and nothing else) on host:port; rejects when the port cannot be bound. */
export async function listenMetrics(scrape: Scrape, host: string, port: number): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("only GET /metrics here\n");
      return;
    }
    scrape().then(
      ({ body, contentType }) => res.writeHead(200, { "content-type": contentType }).end(req.method === "HEAD" ? undefined : body),
      (error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(`cannot collect the metrics: ${messageOf(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const why = listenProblem(error.code ?? "", host, port, METRICS_FLAGS) ?? messageOf(error);
      reject(new Error(`cannot listen for metrics on ${host}:${port}: ${why}`));
    });
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return { origin: `http://${host.includes(":") ? `[${host}]` : host}:${bound}`, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
