import { HTTPError, HTTPResponse, type H3Event, type Middleware } from "h3";
import { STATUS_CODES } from "node:http";
import { isPending, whenReady, type MaybePromise } from "../../support/maybe-async.js";
import { API_PREFIX } from "../../contract/constants.js";
import { errorJson, statusOf, type ErrorCode } from "../../contract/errors.js";
import { BETA_MARKER, type Deprecation, type Method, type PathRoutes, type RouteEntry } from "../../contract/routes.js";
import type { KeyLimits } from "../../contract/schemas.js";
import type { Scope } from "../../contract/scopes.js";
import type { Decision, RateLimiter } from "../../limits/rate-limiter.js";
import { rateLimitHeaders, type HeaderList } from "../../limits/headers.js";
import type { KeyRecord, KeyStore } from "../../store/key-store.js";
import { bearerToken } from "../internal/bearer.js";
import { JsonText } from "../internal/json-text.js";
import { NotModified } from "../internal/not-modified.js";
import { encodeAnswer, notModifiedHeaders } from "../internal/compression.js";
import { hashOnConnection } from "../keys/connection-hashes.js";
import { keyRefusal } from "../keys/key-validity.js";
import type { EventTickets } from "../events/event-tickets.js";
import type { TrustProxy } from "../internal/client-ip.js";
import { clientBucket } from "../internal/client-bucket.js";
import { insufficientScopeChallenge, insufficientScopeMessage, SCOPE_BITS, scopeMaskOf } from "../keys/key-scopes.js";
import { REQUEST_ID_HEADER, requestIdOf } from "../internal/request-id.js";
import { isWrite } from "../ops/observe.js";
import { NO_STORE, NOSNIFF, securityHeaders } from "../internal/security-headers.js";
import { PreparedAnswer } from "../internal/prepared-answer.js";
import { frameworkInternals, type FrameworkInternals } from "../internal/framework-internals.js";
import { requestHeader } from "../internal/request-header.js";
import { linkBase } from "../internal/public-url.js";

declare module "h3" {
  interface H3EventContext {
    /** The hash of the secret the principal was identified by (the header's, or the one its ticket was asked with). */
    credentialHash?: string;
  }
}

export interface GuardDeps {
  keys: KeyStore;
  /** Where links point (--public-url, without a trailing slash); the request's origin without. */
  publicUrl?: string;
  /** Redeems `?ticket=` on the operations that take one (GET /v1/events); without, no ticket is valid. */
  tickets?: EventTickets;
  limiter: RateLimiter;
  limitsOf: (key: KeyRecord) => KeyLimits;
  /** Limits for requests without a valid key, counted per client IP. */
  anonymousLimits: KeyLimits;
  /** The anonymous limits as they are now, when they can change at run time (SIGHUP). */
  anonymousLimitsOf?: () => KeyLimits;
  /** An admin key from the environment (PETSTORE_ADMIN_KEY): valid, but never stored. */
  environmentAdmin?: KeyRecord;
  trustProxy: TrustProxy | false;
  now: () => number;
  /** Told of each 429, with its reason (metrics). */
  onRefused?: (reason: string) => void;
  /**
   * Awaited after each write request (not GET or HEAD) that may have changed something,
   * before it is answered: instances sharing a database then drop the listings they keep.
   */
  announceChange?: () => Promise<void>;
  /** How the handlers' response headers are found: h3's private symbols where it has them (PUBLIC_PATHS in a test). */
  internals?: FrameworkInternals;
}

const JSON_CONTENT_TYPE: [string, string] = ["content-type", "application/json;charset=UTF-8"];

/**
 * Auth and rate limits in one middleware (each extra h3 middleware is a measurable share of a
 * request at this server's rate). Order: identify the caller, count, refuse or serve. Every response
 * but those of unlimited routes (/healthz) leaves here with the rate-limit headers, and with the
 * marks its route's table entry asks for (deprecation, beta), errors included. Who may call a
 * route (public, any key, admin, a key with its scope) comes from its entry too.
 *
 * It builds its own responses rather than going through h3's header merging: a refusal is
 * answered here without an Error (no stack to capture, no error hook), and a JSON result gets
 * its headers as one plain list. Both measured as the larger part of the cost of a request.
 *
 * It awaits only what is not ready: with the key and the counters in memory (the file engine, a
 * key this instance has cached) and a handler that answers at once (a kept listing), the whole
 * request runs in one synchronous pass, and app.fetch hands back the Response itself.
 */
export function createGuard(given: GuardDeps): Middleware {
  const deps = { ...given, internals: given.internals ?? frameworkInternals() };
  return (event, next) => {
    const routes = event.context.matchedRoute?.meta as PathRoutes | undefined;
    if (routes?.unlimited) return unlimited(event, next, routes, deps);
    const operation = routes?.operations[(event.req.method === "HEAD" ? "GET" : event.req.method) as Method];
    // No closure on the synchronous path: one is made only for what has to be awaited.
    const credential = identify(event, deps, operation?.ticket === true);
    if (isPending(credential)) return credential.then((known) => count(event, next, deps, routes, operation, known));
    return count(event, next, deps, routes, operation, credential);
  };
}

type Next = () => unknown;

/**
 * A count of its own for a route outside every key's limits (the /docs files): per client
 * address, whatever key is sent, so that it neither uses up a key's or the anonymous limit nor
 * goes unbounded.
 */
export interface OwnBucket {
  /** The prefix of its subjects: `docs` counts `docs:<address>`. */
  name: string;
  limits: KeyLimits;
}

function unlimited(event: H3Event, next: Next, routes: PathRoutes, deps: Deps): unknown {
  const bucket = (routes as PathRoutes & { bucket?: OwnBucket }).bucket;
  if (bucket) return countInBucket(event, next, deps, bucket);
  event.res.headers.set(REQUEST_ID_HEADER, requestIdOf(event));
  // Probes and /metrics: never from a cache (a stale "ready" misleads a load balancer). The
  // /docs files are public and the same for everyone: they say how long they keep.
  event.res.headers.set(...NOSNIFF);
  if (!routes.ownCaching) event.res.headers.set(...NO_STORE);
  return whenReady(next(), (result) => withReasonPhrase(event, result));
}

type Deps = GuardDeps & { internals: FrameworkInternals };

function countInBucket(event: H3Event, next: Next, deps: Deps, bucket: OwnBucket): unknown {
  const subject = `${bucket.name}:${clientBucket(event, deps.trustProxy)}`;
  const { limiter } = deps;
  if (limiter.consumeSync) return admitInBucket(event, next, deps, limiter.consumeSync(subject, bucket.limits));
  return limiter.consume(subject, bucket.limits).then((decision) => admitInBucket(event, next, deps, decision));
}

/** The bucket's rate-limit headers on every answer, the file's own caching kept; a 429 beyond it. */
function admitInBucket(event: H3Event, next: Next, deps: Deps, decision: Decision): unknown {
  const headers = rateLimitHeaders(decision, deps.now());
  headers.push([REQUEST_ID_HEADER, requestIdOf(event)], [...NOSNIFF]);
  if (!decision.allowed) {
    deps.onRefused?.(decision.reason);
    return refuse(event, tooManyRequests(decision), headers);
  }
  setHeaders(event, headers);
  return whenReady(next(), (result) => withReasonPhrase(event, result));
}

function count(event: H3Event, next: Next, deps: Deps, routes: PathRoutes | undefined, operation: RouteEntry | undefined, credential: Credential): unknown {
  const key = credential.key;
  const subject = key ? `key:${key.id}` : `ip:${clientBucket(event, deps.trustProxy)}`;
  const limits = key ? deps.limitsOf(key) : (deps.anonymousLimitsOf?.() ?? deps.anonymousLimits);
  const { limiter } = deps;
  if (limiter.consumeSync) return admit(event, next, deps, routes, operation, credential, limiter.consumeSync(subject, limits));
  return limiter.consume(subject, limits).then((decided) => admit(event, next, deps, routes, operation, credential, decided));
}

function admit(event: H3Event, next: Next, deps: Deps, routes: PathRoutes | undefined, operation: RouteEntry | undefined, credential: Credential, decision: Decision): unknown {
  const key = credential.key;
  const headers = rateLimitHeaders(decision, deps.now());
  headers.push([REQUEST_ID_HEADER, requestIdOf(event)]);
  if (deps.publicUrl !== undefined) event.context.publicUrl = deps.publicUrl;
  markRoute(event, operation, routes, headers);
  headers.push(...securityHeaders(key === undefined && operation?.access === "public"));
  if (!decision.allowed) {
    deps.onRefused?.(decision.reason);
    return refuse(event, tooManyRequests(decision), headers);
  }
  if (key) {
    if (key !== deps.environmentAdmin) deps.keys.touch(key.id, new Date(deps.now()));
    event.context.principal = key;
    event.context.credentialHash = credential.hash;
  } else if (!(operation ? operation.access === "public" : routes?.public) && isUnderApi(event.url.pathname)) {
    return refuse(event, unauthorized(credential.problem), headers);
  }
  if (operation?.access === "admin" && !key?.admin) {
    return refuse(event, { code: "forbidden", message: "this operation needs an admin API key", headers: [] }, headers);
  }
  // After the count, as a 401 or a 403 forbidden: a refusal costs the key a request like any answer.
  if (operation?.scope !== undefined && key && (scopeMaskOf(key) & SCOPE_BITS[operation.scope]) === 0) {
    return refuse(event, insufficientScope(operation.scope, key), headers);
  }
  const announce = deps.announceChange && isWrite(event.req.method) ? deps.announceChange : undefined;
  let result: unknown;
  try {
    result = next();
  } catch (error) {
    return failed(event, headers, announce, error);
  }
  if (isPending(result)) {
    return result.then(
      (answer) => answered(event, answer, headers, announce, deps.internals),
      (error: unknown) => failed(event, headers, announce, error),
    );
  }
  return answered(event, result, headers, announce, deps.internals);
}

/** The handler's result as a response with the guard's headers, once any change is announced. */
function answered(
  event: H3Event,
  result: unknown,
  headers: HeaderList,
  announce: (() => Promise<void>) | undefined,
  internals: FrameworkInternals,
): unknown {
  if (announce) return announce().then(() => respond(event, result, headers, internals));
  return respond(event, result, headers, internals);
}

/** The handler failed: the single error path (toErrorResponse) copies these headers onto the error response. */
function failed(event: H3Event, headers: HeaderList, announce: (() => Promise<void>) | undefined, error: unknown): never | Promise<never> {
  setHeaders(event, headers);
  // A refusal (4xx) changed nothing; after a 5xx, what was written is not known.
  if (announce && !(error instanceof HTTPError && error.status < 500)) {
    return announce().then(() => {
      throw error;
    });
  }
  throw error;
}

function respond(event: H3Event, result: unknown, headers: HeaderList, internals: FrameworkInternals): unknown {
  if (result instanceof JsonText) return jsonTextResponse(event, result, headers, internals);
  if (isJsonValue(result)) return jsonResponse(event, result, headers, internals);
  if (result instanceof NotModified) return notModified(event, result, headers);
  if (result === null && event.res.status === 204) return withoutBody(event, headers, internals);
  // A response of the handler's own (the event stream) keeps its Cache-Control.
  setHeaders(event, ownsCacheControl(result) ? headers.filter(([name]) => name !== "cache-control") : headers);
  return withReasonPhrase(event, result);
}

/**
 * A result h3 turns into a response itself (text, 204): give it its reason phrase, which srvx
 * would otherwise send empty (`HTTP/1.1 204 `). Errors get theirs in the error handler.
 */
function withReasonPhrase(event: H3Event, result: unknown): unknown {
  event.res.statusText = STATUS_CODES[event.res.status ?? 200];
  return result;
}

type Credential = { key: KeyRecord; hash: string; problem?: undefined } | { key?: undefined; problem: string };

const MISSING_KEY: Credential = { problem: "missing API key: send the header Authorization: Bearer <API key>" };
const MALFORMED_KEY: Credential = { problem: "the Authorization header must have the form Bearer <API key>" };
const UNKNOWN_KEY: Credential = { problem: "the API key is not valid" };

/** Who is calling: at once when the key store knows the hash in memory, else once it has looked. */
function identify(event: H3Event, deps: GuardDeps, acceptsTicket: boolean): MaybePromise<Credential> {
  const header = event.req.headers.get("authorization");
  if (header === null) {
    const ticket = acceptsTicket ? event.url.searchParams.get("ticket") : null;
    if (ticket !== null) return identifyTicket(ticket, deps);
    return MISSING_KEY;
  }
  const token = bearerToken(header);
  if (token === undefined) return MALFORMED_KEY;
  const hash = hashOnConnection(token, event.req.runtime?.node?.req.socket);
  if (deps.environmentAdmin?.hash === hash) return { key: deps.environmentAdmin, hash };
  const known = deps.keys.findByHashSync?.(hash);
  if (known !== undefined) return credentialOf(known ?? undefined, hash, deps);
  return deps.keys.findByHash(hash).then((found) => credentialOf(found, hash, deps));
}

function credentialOf(key: KeyRecord | undefined, hash: string, deps: GuardDeps): Credential {
  if (!key) return UNKNOWN_KEY;
  const problem = keyRefusal(key, hash, deps.now());
  return problem === undefined ? { key, hash } : { problem };
}

/**
 * A browser's EventSource, with a ticket from createEventTicket: the key it was issued to, if
 * still usable, and the ticket is spent. A ticket refused (spent, forged, expired) identifies
 * nobody: its request counts against the client's address, never against the key.
 */
function identifyTicket(ticket: string, deps: GuardDeps): Promise<Credential> {
  const admin = deps.environmentAdmin;
  const findKey = async (id: string) => (admin?.id === id ? admin : (await deps.keys.list()).find((key) => key.id === id));
  return deps.tickets ? deps.tickets.redeem(ticket, findKey, deps.now()) : Promise.resolve({ problem: "the ticket is not valid" });
}

/** A refusal: what the error path would answer for the same ApiHttpError, built directly. */
interface Refusal {
  code: ErrorCode;
  message: string;
  headers: HeaderList;
}

function tooManyRequests(decision: Extract<Decision, { allowed: false }>): Refusal {
  const retry = `retry in ${decision.retryAfter} s`;
  const message =
    decision.reason === "key_banned"
      ? `temporarily banned after too many requests over the rate limit; ${retry}`
      : `rate limit exceeded; ${retry}, and back off exponentially on repeated 429s`;
  // Retry-After is among the rate-limit headers already.
  return { code: decision.reason, message, headers: [] };
}

function insufficientScope(scope: Scope, key: KeyRecord): Refusal {
  return { code: "insufficient_scope", message: insufficientScopeMessage(scope, key), headers: [["www-authenticate", insufficientScopeChallenge([scope])]] };
}

function unauthorized(message: string): Refusal {
  return { code: "unauthorized", message, headers: [["www-authenticate", 'Bearer realm="petstore"']] };
}

function refuse(event: H3Event, refusal: Refusal, headers: HeaderList): Response {
  const { code, message } = refusal;
  headers.push(...refusal.headers, ["content-type", "application/json"]);
  // A refusal is about this caller (its quota, its key), even on a public document.
  if (!headers.some(([name]) => name === NO_STORE[0])) headers.push([...NO_STORE]);
  return fastResponse(event, statusOf(code), errorJson(code, message), headers);
}

/** h3's own answer for a JSON-serialisable result, with the handler's status and headers. */
function jsonResponse(event: H3Event, result: object, headers: HeaderList, internals: FrameworkInternals): Response {
  moveHeaders(event, headers, internals);
  headers.push(JSON_CONTENT_TYPE);
  return fastResponse(event, event.res.status ?? 200, JSON.stringify(result), headers);
}

/**
 * A body the handler serialised (and may have kept), with its own headers. What other middleware
 * put in h3's response headers (CORS) is moved too: merged by h3, the body would go out chunked.
 */
function jsonTextResponse(event: H3Event, result: JsonText, headers: HeaderList, internals: FrameworkInternals): Response {
  moveHeaders(event, headers, internals);
  headers.push(...result.headers, JSON_CONTENT_TYPE);
  return fastResponse(event, 200, result.text, headers);
}

/** The handler's headers onto `headers`: moved, not copied, or h3 would merge them in a second time. */
function moveHeaders(event: H3Event, headers: HeaderList, internals: FrameworkInternals): void {
  // Reading event.res.headers would create them: first ask whether anything set one.
  if (!internals.hasResponseHeaders(event)) return;
  const set = event.res.headers;
  const moved: string[] = [];
  for (const [name, value] of set) {
    headers.push([name, value]);
    moved.push(name);
  }
  for (const name of moved) set.delete(name);
}

/**
 * A 204 with the handler's headers, built here like a JSON answer: through h3 a null result is
 * merged into undici Headers, a cost measured as the larger part of a 304's before NotModified.
 */
function withoutBody(event: H3Event, headers: HeaderList, internals: FrameworkInternals): Response {
  moveHeaders(event, headers, internals);
  return new PreparedAnswer(204, null, headers);
}

/** A 304: its ETag and the guard's headers, without reading h3's response headers at all. */
function notModified(event: H3Event, result: NotModified, headers: HeaderList): Response {
  headers.push(...notModifiedHeaders(requestHeader(event, "accept-encoding"), requestHeader(event, "if-none-match"), result.etag));
  return new PreparedAnswer(304, null, headers);
}

function fastResponse(event: H3Event, status: number, body: string, headers: HeaderList): Response {
  // Compressed (gzip, br) when accepted and worth it; HEAD gets the same headers, without the body.
  const encoded = encodeAnswer(requestHeader(event, "accept-encoding"), status, body, headers);
  return new PreparedAnswer(status, event.req.method === "HEAD" ? null : encoded, headers);
}

/** The event stream answers with an HTTPResponse (its body piped to the socket) rather than a Response. */
function ownsCacheControl(result: unknown): boolean {
  return (result instanceof Response || result instanceof HTTPResponse) && result.headers.has("cache-control");
}

function isJsonValue(result: unknown): result is object {
  if (typeof result !== "object" || result === null) return false;
  if (Array.isArray(result)) return true;
  const proto = Object.getPrototypeOf(result) as unknown;
  return proto === Object.prototype || proto === null;
}

function setHeaders(event: H3Event, headers: HeaderList): void {
  const target = event.res.headers;
  for (const [name, value] of headers) target.set(name, value);
}

/**
 * The headers a route's own entry asks for: a deprecated operation (or, for a 405, a path whose
 * every operation is deprecated) gets its dates and successor; a beta operation its marker.
 */
function markRoute(event: H3Event, operation: RouteEntry | undefined, routes: PathRoutes | undefined, headers: HeaderList): void {
  const deprecation = operation ? operation.deprecated : routes?.deprecated;
  if (deprecation) headers.push(...deprecationHeaders(event, deprecation));
  if (operation?.stability === "beta") headers.push(["x-api-stability", BETA_MARKER]);
}

function deprecationHeaders(event: H3Event, deprecation: Deprecation): HeaderList {
  return [
    ["deprecation", `@${deprecation.since}`],
    ["sunset", deprecation.sunset],
    ["link", `<${linkBase(event)}${API_PREFIX}${deprecation.successor}>; rel="successor-version"`],
  ];
}

function isUnderApi(pathname: string): boolean {
  return pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);
}
