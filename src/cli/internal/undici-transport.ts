// The real wire: one keep-alive undici Agent per command (so `--all` reuses its connection),
// a time limit per attempt, and failures without an answer turned into NetworkError. Which parts
// of undici it runs on (its private modules, or its index) is undici-parts.ts's business.
import type { Dispatcher } from "undici";
import { readFile } from "node:fs/promises";
import { setFlagsFromString } from "node:v8";
import { messageOf } from "../../support/error-text.js";
import { MAX_ANSWER_BYTES, type Attempt, type HttpSettings, type ResponseHeaders, type StreamAttempt, type Transport, type WireRequest } from "../http.js";
import { ApiError, UsageError } from "../errors.js";
import { networkFailure } from "./hints.js";
import { undiciParts, type UndiciParts } from "./undici-parts.js";

type TransportSettings = Pick<HttpSettings, "baseUrl" | "timeoutMs" | "caCert">;

/**
 * The transport over undici. `ca`: the certificates to trust, when not only Node's own (see
 * trustedCertificates); `parts`: undici-parts.ts's choice unless a test names them.
 */
export function undiciTransport(settings: TransportSettings, ca?: string[], parts?: UndiciParts): Transport {
  // undici parses HTTP with llhttp in WebAssembly, compiled at the first connection. V8 then
  // recompiles it with TurboFan on background threads, and Node waits for those before exiting:
  // 200-400 ms of idle after the answer was printed (seen in --cpu-prof). A command parses a few
  // answers; the baseline compiler alone does that at no visible cost.
  setFlagsFromString("--liftoff-only");
  const connection = Promise.resolve(parts ?? undiciParts()).then((undici) => {
    const agent = undici.createAgent({ keepAliveTimeout: 10_000, connect: { timeout: settings.timeoutMs, ...(ca ? { ca } : {}) } });
    return { agent, request: (options: Dispatcher.RequestOptions) => undici.request(agent, options) };
  });
  return {
    send: async (wire, signal) => attemptOnce((await connection).request, settings, wire, signal),
    open: async (wire, signal) => openStream((await connection).request, settings, wire, signal),
    close: async () => (await connection).agent.close(),
  };
}

/**
 * Node's own certificate authorities and those in the --ca-cert file, or undefined without one
 * (then undici uses Node's). Added, not instead: a profile's CA must not break a public host.
 */
export async function trustedCertificates(file: string | undefined): Promise<string[] | undefined> {
  if (file === undefined) return undefined;
  const pem = await readFile(file, "utf8").catch((error: unknown) => {
    throw new UsageError(`cannot read the CA certificate file ${file} (--ca-cert, PETSTORE_CA_CERT or ca-cert in the config file): ${messageOf(error)}`);
  });
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
    throw new UsageError(`the CA certificate file ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  // node:tls only now: an http:// command never loads it (test/support/lean-client.test.ts).
  const { rootCertificates } = await import("node:tls");
  return [...rootCertificates, pem];
}

/**
 * One request and its whole answer. The time limit covers the body too (a server that sends its
 * headers and then a byte a second is a timeout), and the body stops being read past
 * MAX_ANSWER_BYTES, so a hostile or broken server costs at most that much memory.
 */
type Request = (options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

async function attemptOnce(request: Request, settings: TransportSettings, wire: WireRequest, signal?: AbortSignal): Promise<Attempt> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  const giveUp = () => controller.abort();
  signal?.addEventListener("abort", giveUp, { once: true });
  if (signal?.aborted) controller.abort();
  try {
    const url = new URL(wire.url);
    const response = await request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: wire.method,
      headers: wire.headers,
      body: wire.body,
      signal: controller.signal,
    });
    const text = await readCapped(response.body, wire.url, response.statusCode);
    if (text instanceof ApiError) return { kind: "failure", error: text, transient: false };
    return { kind: "answer", status: response.statusCode, headers: flattenHeaders(response.headers), text };
  } catch (error) {
    return { kind: "failure", ...networkFailure(error, controller.signal.aborted, wire.url, settings) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", giveUp);
  }
}

// A stream's server sends a keep-alive comment every 15 s: four missed ones mean the connection is gone.
const STREAM_SILENCE_MS = 60_000;

/** A GET whose 2xx body is handed over unread; the time limit covers only the wait for the headers. */
async function openStream(request: Request, settings: TransportSettings, wire: WireRequest, signal: AbortSignal): Promise<StreamAttempt> {
  const url = new URL(wire.url);
  try {
    const response = await request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: wire.method,
      headers: wire.headers,
      signal,
      headersTimeout: settings.timeoutMs,
      bodyTimeout: STREAM_SILENCE_MS,
    });
    const headers = flattenHeaders(response.headers);
    if (response.statusCode >= 200 && response.statusCode <= 299) return { kind: "stream", status: response.statusCode, headers, body: response.body };
    const text = await readCapped(response.body, wire.url, response.statusCode);
    if (text instanceof ApiError) return { kind: "failure", error: text, transient: false };
    return { kind: "answer", status: response.statusCode, headers, text };
  } catch (error) {
    return { kind: "failure", ...networkFailure(error, false, wire.url, settings) };
  }
}

/** The body as text, or the error to report when it passes MAX_ANSWER_BYTES (the rest is never read). */
async function readCapped(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, url: string, status: number): Promise<string | ApiError> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      return answerTooLarge(url, status);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function answerTooLarge(url: string, status: number): ApiError {
  const mib = MAX_ANSWER_BYTES / 1024 / 1024;
  const message = `the answer from ${url} is larger than ${mib} MiB; it was not read further`;
  return new ApiError({ code: "response_too_large", message, status }, `No answer of the petstore API is that large: check the base URL, or what answers at it.`);
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): ResponseHeaders {
  const flat: ResponseHeaders = {};
  for (const [name, value] of Object.entries(headers)) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}
