// The real wire: one keep-alive undici Agent per command (so `--all` reuses its connection),
// a time limit per attempt, and failures without an answer turned into NetworkError.
import { Agent, request } from "undici";
import type { Attempt, HttpSettings, ResponseHeaders, Transport, WireRequest } from "../http.js";
import { networkFailure } from "./hints.js";

export function undiciTransport(settings: Pick<HttpSettings, "baseUrl" | "timeoutMs">): Transport {
  const agent = new Agent({ keepAliveTimeout: 10_000, connect: { timeout: settings.timeoutMs } });
  return {
    send: (wire) => attemptOnce(agent, settings, wire),
    close: () => agent.close(),
  };
}

async function attemptOnce(agent: Agent, settings: Pick<HttpSettings, "baseUrl" | "timeoutMs">, wire: WireRequest): Promise<Attempt> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  try {
    const response = await request(wire.url, {
      dispatcher: agent,
      method: wire.method,
      headers: wire.headers,
      body: wire.body,
      signal: controller.signal,
    });
    const text = await response.body.text();
    return { kind: "answer", status: response.statusCode, headers: flattenHeaders(response.headers), text };
  } catch (error) {
    return { kind: "failure", ...networkFailure(error, controller.signal.aborted, wire.url, settings) };
  } finally {
    clearTimeout(timer);
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): ResponseHeaders {
  const flat: ResponseHeaders = {};
  for (const [name, value] of Object.entries(headers)) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}
