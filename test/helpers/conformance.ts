// Every integration test's HTTP call goes through checkResponse: the response must be one the
// OpenAPI document declares (status, headers, body), or the test fails.
//
// Requests outside every operation are held to the document's routing rules (its info.description):
// an unlisted path answers 404 NotFound (or 401/429/500), a listed path with another method 405
// MethodNotAllowed with the path's Allow (or 401/429/500). GET /healthz is outside the document:
// 200 {"status":"ok"} with transport headers only.
import { AssertionError } from "node:assert";
import { afterEach } from "vitest";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import {
  declaredStatuses,
  document,
  escape,
  expectedResponse,
  findTarget,
  resolve,
  type Expected,
  type Json,
} from "./internal/openapi-lookup.js";

/** Headers HTTP itself sets; the document does not describe them. */
const PROBE_HEADERS = new Set(["x-request-id", "x-content-type-options", "cache-control"]);
// Content-Encoding and Vary too: compression is HTTP's negotiation, the same JSON underneath (docs/api.md: Compression).
const TRANSPORT_HEADERS = new Set(["content-type", "content-length", "date", "connection", "keep-alive", "transfer-encoding", "content-encoding", "vary"]);
/** CORS (serve --cors-origin) belongs to a deployment, not to the contract: Access-Control-* and Vary. */
const isCorsHeader = (name: string) => name.startsWith("access-control-") || name === "vary";
const DOCUMENT_ID = "https://petstore.test/openapi.json";

const bodies = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
formats.default(bodies);
// The document's own keywords are not JSON Schema; its schemas are reached by JSON pointer.
// `discriminator` is OpenAPI's annotation: the schemas it sits on choose by their own `const`s.
bodies.addVocabulary(["openapi", "info", "servers", "security", "tags", "paths", "webhooks", "components", "x-enumDescriptions", "discriminator"]);
bodies.addSchema({ ...document, $id: DOCUMENT_ID });
const headerValues = new Ajv2020({ strict: true, coerceTypes: true });
formats.default(headerValues);
const validators = new Map<string, ValidateFunction>();

// A conformance failure thrown inside a test's own try/catch would vanish; fail that test anyway.
const unreported: string[] = [];
afterEach(({ task }) => {
  const missed = unreported.splice(0);
  if (missed.length > 0 && task.result?.state !== "fail") {
    throw new AssertionError({ message: `conformance failures caught inside the test:\n${missed.join("\n")}` });
  }
});

/**
 * Checks a response against the OpenAPI document; reads its body, so pass a clone.
 * @example await checkResponse("GET", `${baseUrl}/pets?limit=1`, response.clone())
 */
export async function checkResponse(method: string, pathTemplateOrUrl: string, response: Response): Promise<void> {
  const problems = await findProblems(method, pathTemplateOrUrl, response);
  if (problems.length === 0) return;
  const message = `${method} ${pathTemplateOrUrl} answered ${response.status}, which the OpenAPI document does not allow:\n- ${problems.join("\n- ")}`;
  unreported.push(message);
  throw new AssertionError({ message });
}

/** A validator for one of components.schemas, as the conformance check applies it. */
export function componentValidator(name: string): ValidateFunction {
  const pointer = `/components/schemas/${escape(name)}`;
  return compiled(bodies, pointer, { $ref: `${DOCUMENT_ID}#${pointer}` });
}

/** Marks every failure so far as reported: for tests that expect checkResponse to throw. */
export function forgetConformanceFailures(): void {
  unreported.length = 0;
}

async function findProblems(method: string, pathTemplateOrUrl: string, response: Response): Promise<string[]> {
  const target = findTarget(method, pathTemplateOrUrl);
  if (target.kind === "health") return healthProblems(response);
  const expected = expectedResponse(target, response.status);
  if (!expected) return [`${target.label} declares ${declaredStatuses(target).join(", ")}, not ${response.status}`];
  const allow = target.kind === "routing" && response.status === 405 ? allowProblems(target.allow ?? [], response.headers) : [];
  return [...headerProblems(expected, response.headers), ...allow, ...(await bodyProblems(expected, method, response))];
}

/** A 405's Allow must list the methods the document gives the path (HEAD wherever GET is). */
function allowProblems(allowed: string[], headers: Headers): string[] {
  const sent = headers.get("allow");
  const same = String(sent?.split(/,\s*/).sort()) === String([...allowed].sort());
  return same ? [] : [`Allow is "${sent}", the document lists ${allowed.join(", ")}`];
}

function headerProblems(expected: Expected, headers: Headers): string[] {
  const problems: string[] = [];
  const declared = new Map<string, { component: string; header: Json }>();
  for (const [name, ref] of Object.entries((expected.response.headers ?? {}) as Record<string, Json>)) {
    declared.set(name.toLowerCase(), { component: String(ref.$ref ?? name), header: resolve(ref) });
  }
  for (const [name, { component, header }] of declared) {
    const value = headers.get(name);
    if (value === null) {
      if (header.required === true) problems.push(`required header ${name} is missing (${expected.label})`);
      continue;
    }
    const validate = compiled(headerValues, component, header.schema as Json);
    if (!validate(value)) problems.push(`header ${name}: "${value}" ${headerValues.errorsText(validate.errors)}`);
  }
  for (const name of headers.keys()) {
    if (!TRANSPORT_HEADERS.has(name) && !declared.has(name) && !isCorsHeader(name)) problems.push(`header ${name} is not declared by ${expected.label}`);
  }
  return problems;
}

async function bodyProblems(expected: Expected, method: string, response: Response): Promise<string[]> {
  const text = await response.text();
  const content = expected.response.content as Record<string, Json> | undefined;
  if (method.toUpperCase() === "HEAD" || !content) {
    return text === "" ? [] : [`${expected.label} declares no body, got ${JSON.stringify(text.slice(0, 80))}`];
  }
  if (!response.headers.get("content-type")?.startsWith("application/json")) {
    return [`content-type is ${response.headers.get("content-type")}, the document says application/json`];
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`the body is not JSON: ${JSON.stringify(text.slice(0, 80))}`];
  }
  const pointer = `${expected.pointer}/content/${escape("application/json")}/schema`;
  const validate = compiled(bodies, pointer, { $ref: `${DOCUMENT_ID}#${pointer}` });
  return validate(body) ? [] : [`the body breaks ${expected.label}'s schema: ${bodies.errorsText(validate.errors)}`];
}

async function healthProblems(response: Response): Promise<string[]> {
  // X-Request-Id and the security headers are on every answer of the server (docs/server.md, Logs; docs/security.md), probes included.
  const extra = [...response.headers.keys()].filter((name) => !TRANSPORT_HEADERS.has(name) && !PROBE_HEADERS.has(name));
  if (response.status !== 200) return [`GET /healthz answers 200 only`];
  if (extra.length > 0) return [`GET /healthz sends only transport headers, X-Request-Id and the security headers, not ${extra.join(", ")}`];
  if (response.headers.get("x-content-type-options") !== "nosniff" || response.headers.get("cache-control") !== "no-store") {
    return ["GET /healthz carries X-Content-Type-Options: nosniff and Cache-Control: no-store"];
  }
  const text = await response.text();
  return text === '{"status":"ok"}' ? [] : [`GET /healthz answered ${text}`];
}

function compiled(ajv: Ajv2020, key: string, schema: Json): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}
