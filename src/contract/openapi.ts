// The OpenAPI 3.1 document of the API, generated from the contract (the zod schemas, the
// error codes, the constants): served at GET /v1/openapi.json and printed by `petstore openapi`.
import { LICENSE } from "../support/package-info.js";
import { API_PREFIX, HEALTH_PATH, LOCAL_BASE_URL } from "./constants.js";
import { DEFAULT_DEADLINES, kibibytes, MAX_HEADER_BYTES, seconds } from "./limits.js";
import { ADMIN_BEARER, BEARER, paths } from "./openapi-operations.js";
import { componentResponses, headerComponents } from "./openapi-responses.js";
import { componentSchemas } from "./openapi-schemas.js";
import { WEBHOOK_HEADER_PARAMETERS, webhookOperations } from "./openapi-webhooks.js";
import { ROUTES, type RouteEntry } from "./routes.js";
import { SCOPE_MEANINGS, SCOPES } from "./scopes.js";
import { TAGS } from "./tags.js";

const DESCRIPTION = `The animal-store API.

- **Authentication.** Every operation but GET /openapi.json needs \`Authorization: Bearer <API key>\`.
  A missing, malformed, unknown or revoked key is 401 \`unauthorized\` with \`WWW-Authenticate\`.
- **Scopes.** A key holds scopes (${SCOPES.map((scope) => `\`${scope}\``).join(", ")}); each operation's
  security requirement names the one it needs, and its description says it in words. Without it:
  403 \`insufficient_scope\` with \`WWW-Authenticate: Bearer error="insufficient_scope", scope="<scope>"\`,
  nothing changed, and the request counted against the key's rate limit. A key created without
  scopes holds them all; admin keys hold them all, and alone may call the admin operations.
- **Rate limits.** Every response carries \`X-RateLimit-*\`, \`RateLimit\` and \`RateLimit-Policy\`.
  Over the limit: 429 with \`Retry-After\`; back off exponentially, or the key is banned for a while.
- **Errors.** Every error has the Error body (\`code\`, \`message\`, \`status\`).
- **Stability.** The operations tagged Store are beta (\`x-stability-level: beta\`): they may still change
  within v1, and every answer to them carries \`X-API-Stability: beta\`. A key with the scope each names may call them.
- **Routing.** A path this document does not list answers 404 \`not_found\`
  (#/components/responses/NotFound; 401 first under ${API_PREFIX} without a valid key); a listed path
  called with another method answers 405 \`method_not_allowed\` with \`Allow\`
  (#/components/responses/MethodNotAllowed). HEAD is served wherever GET is.
- **Transport errors.** A request that is not valid HTTP/1.1 never reaches an operation. It is answered
  with the Error body, without rate-limit headers, and the connection is closed: 400
  \`malformed_request\`, 408 \`request_timeout\` (headers within ${seconds(DEFAULT_DEADLINES.headersMs)}, the whole request within ${seconds(DEFAULT_DEADLINES.requestMs)}) or
  431 \`headers_too_large\` (over ${kibibytes(MAX_HEADER_BYTES)}). CONNECT answers 405 \`method_not_allowed\` with an empty \`Allow\`.
- **Health.** \`GET ${HEALTH_PATH}\` (outside ${API_PREFIX}, no key, no rate-limit headers) answers
  \`{"status":"ok"}\`; it is not an API operation and is not described here.`;

/**
 * Builds the whole document from the route table; a fresh object each call, so callers may
 * mutate it. Tests pass a table of their own to see how an entry is documented.
 */
export function buildOpenApiDocument(routes: readonly RouteEntry[] = ROUTES): Record<string, unknown> {
  const documentPaths = structuredClone(paths(routes));
  return {
    openapi: "3.1.0",
    info: {
      title: "Animal store API",
      // The interface version (the spec's), not the package's: it changes only with the contract.
      version: "1.0.0",
      description: DESCRIPTION,
      license: { name: LICENSE, identifier: LICENSE },
      contact: { name: "Animal store API team", email: "api@petstore.example" },
    },
    servers: [
      {
        url: `https://{host}${API_PREFIX}`,
        description: "Production",
        "x-internal": false,
        variables: { host: { default: "api.petstore.example", description: "The production host." } },
      },
      {
        url: `https://{stagingHost}${API_PREFIX}`,
        description: "Staging",
        "x-internal": true,
        variables: { stagingHost: { default: "staging.api.petstore.example", description: "The staging host." } },
      },
      // Relative: the server that served this document, so its own "try it" and clients reach it,
      // over https when it has a certificate (OWASP api8: no http:// server URL).
      { url: API_PREFIX, description: `Local: the server this document came from (\`petstore serve\`: ${LOCAL_BASE_URL})`, "x-internal": true },
    ],
    security: [{ [BEARER]: [] }],
    tags: Object.values(TAGS).map(({ name, description }) => ({ name, description })),
    paths: documentPaths,
    // What each endpoint is sent: one POST per event type, generated from the bodies the server signs.
    webhooks: webhookOperations(),
    components: {
      schemas: componentSchemas(),
      parameters: structuredClone(WEBHOOK_HEADER_PARAMETERS),
      responses: componentResponses(documentPaths),
      headers: headerComponents(routes),
      securitySchemes: {
        [BEARER]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "ps_ and 40 base62 characters",
          description:
            "An API key. Admins create keys with POST /keys; the first admin key is printed by `petstore serve`. " +
            `An operation's requirement names the scope it needs: ${SCOPES.map((scope) => `\`${scope}\` to ${SCOPE_MEANINGS[scope]}`).join("; ")}.`,
        },
        [ADMIN_BEARER]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "ps_ and 40 base62 characters",
          description: "An admin API key: the key printed by `petstore serve`, PETSTORE_ADMIN_KEY, or one made admin. Any other key gets 403.",
        },
      },
    },
  };
}

let serialised: string | undefined;

/** The document as JSON text, built on first use and kept: the server serves this. */
export function openApiJson(): string {
  serialised ??= JSON.stringify(buildOpenApiDocument());
  return serialised;
}
