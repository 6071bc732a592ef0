// `--metrics-token`: /metrics on the main port, for scrapers that can only reach that one, behind
// a bearer token of its own (never an API key: a scraper needs no rights over pets or keys).
import { createHash, timingSafeEqual } from "node:crypto";
import type { H3Event } from "h3";
import { ApiHttpError } from "../errors.js";
import type { Scrape } from "./metrics-listener.js";

export interface MetricsRoute {
  token: string;
  scrape: Scrape;
}

/** The exposition text to the right token; 404 when the route is off, 401 otherwise. */
export async function serveMetrics(event: H3Event, route: MetricsRoute | undefined): Promise<Response> {
  if (!route) throw new ApiHttpError("not_found", "no such resource: metrics are not served on this port");
  const sent = /^Bearer +(\S+) *$/i.exec(event.req.headers.get("authorization") ?? "")?.[1];
  if (sent === undefined || !sameSecret(sent, route.token)) {
    throw new ApiHttpError("unauthorized", "GET /metrics needs the header Authorization: Bearer <metrics token>", {
      "www-authenticate": 'Bearer realm="petstore-metrics"',
    });
  }
  const { body, contentType } = await route.scrape();
  return new Response(body, { status: 200, headers: { "content-type": contentType } });
}

/** Compares digests, so neither the length nor the content leaks through timing. */
function sameSecret(sent: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}
