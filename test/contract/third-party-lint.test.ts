// Judges nobody here wrote: Spectral (spectral:oas and the OWASP API Security ruleset) and
// Redocly CLI (recommended) lint the document as GET /v1/openapi.json serves it, run as the real
// CLIs with the project's own configs (.spectral.yaml, redocly.yaml). No error; every warning is
// one docs/api.md lists under "Third-party lint", so a new one fails here until it is fixed or listed.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../src/contract/scopes.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const bin = (name: string) => join(ROOT, "node_modules/.bin", name);
// No telemetry, no update check: the test runs offline and says nothing to anyone.
const ENV = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

/** The warnings docs/api.md explains, as `rule at JSON path`. */
const LISTED_SPECTRAL_WARNINGS = [
  ...["/pets.get.parameters.6", "/pets/{petId}.get.parameters.1", "/pets/{petId}.patch.parameters.1", "/pets/{petId}.delete.parameters.1"]
    .concat(["/store/orders/{orderId}.get.parameters.1", "/store/orders/{orderId}.patch.parameters.1"])
    .map((at) => `owasp:api4:2023-string-restricted at paths.${at}.schema`),
  "owasp:api4:2023-string-restricted at paths./pets.get.parameters.3.schema",
  ...["Pet", "NewPet", "PetPatch", "NewKey"].map((schema) => `owasp:api4:2023-string-restricted at components.schemas.${schema}.properties.name`),
  "owasp:api4:2023-string-restricted at components.schemas.KeyView.properties.name.anyOf.0",
  "owasp:api4:2023-string-restricted at components.schemas.CreatedKey.properties.name.anyOf.0",
  "owasp:api4:2023-string-restricted at components.schemas.NewWebhook.properties.description",
  ...["lastError", "lastResponse"].map((field) => `owasp:api4:2023-string-restricted at components.schemas.WebhookDelivery.properties.${field}.anyOf.0`),
  ...["Webhook", "CreatedWebhook", "WebhookPatch"].map((schema) => `owasp:api4:2023-string-restricted at components.schemas.${schema}.properties.description.anyOf.0`),
  "owasp:api4:2023-string-restricted at components.schemas.WebhookDisabledData.properties.description.anyOf.0",
  "owasp:api4:2023-string-restricted at components.schemas.WebhookDisabledData.properties.lastError.anyOf.0",
  "owasp:api4:2023-string-restricted at components.schemas.Error.properties.message",
  "owasp:api4:2023-string-restricted at components.schemas.KeyView.properties.prefix",
  "owasp:api4:2023-string-restricted at components.schemas.CreatedKey.properties.prefix",
  "owasp:api2:2023-read-restricted at paths./openapi.json.get.security",
  "owasp:api8:2023-define-error-responses-401 at paths./openapi.json.get.responses",
  "owasp:api8:2023-define-error-responses-401 at paths./openapi.json.get.responses",
  "oas3-unused-component at components.responses.MethodNotAllowed",
  "oas3-unused-component at components.schemas.WebhookEvent",
].sort();

interface SpectralProblem {
  code: string;
  severity: number;
  path: string[];
  message: string;
  source: string;
}
interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; location: Array<{ pointer: string }> }>;
}

let dir: string;
let spectral: { served: SpectralProblem[]; broken: SpectralProblem[]; exitCode: number };
let redocly: RedoclyReport;
// Both CLIs once, side by side (a few seconds each): the served document, and a copy whose
// listPets 200 lost its RateLimit field and whose createPet needs a scope that does not exist, to
// prove the project's own rules bite.
beforeAll(async () => {
  const server: TestServer = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), "petstore-lint-"));
  const served = join(dir, "openapi.json");
  const broken = join(dir, "broken.json");
  try {
    const text = await (await server.api("/openapi.json", { key: null })).text();
    const document = JSON.parse(text);
    delete document.paths["/pets"].get.responses["200"].headers.RateLimit;
    document.paths["/pets"].post.security = [{ bearerAuth: ["pets:delete"] }];
    await Promise.all([writeFile(served, text), writeFile(broken, JSON.stringify(document))]);
  } finally {
    await server.close();
  }
  const spectralArgs = ["lint", served, broken, "--ruleset", join(ROOT, ".spectral.yaml"), "--format", "json"];
  const [spectralRun, redoclyRun] = await Promise.all([
    exec(bin("spectral"), spectralArgs, { cwd: ROOT, env: ENV, maxBuffer: 1 << 24 }).then(
      ({ stdout }) => ({ stdout, code: 0 }),
      (error: { stdout: string; code: number }) => ({ stdout: error.stdout, code: error.code }),
    ),
    exec(bin("redocly"), ["lint", served, "--format", "json"], { cwd: ROOT, env: ENV, maxBuffer: 1 << 24 }),
  ]);
  const problems = JSON.parse(spectralRun.stdout) as SpectralProblem[];
  spectral = {
    served: problems.filter((problem) => problem.source === served),
    broken: problems.filter((problem) => problem.source === broken),
    exitCode: spectralRun.code,
  };
  redocly = JSON.parse(redoclyRun.stdout) as RedoclyReport;
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const describeProblem = (problem: SpectralProblem) => `${problem.code} at ${problem.path.join(".")}`;

describe("the served document, judged by third-party linters", () => {
  it("knows the scopes the server knows: .spectral.yaml's list is SCOPES", async () => {
    const config = await readFile(join(ROOT, ".spectral.yaml"), "utf8");
    const listed = /enum: \[([^\]]*)\]/.exec(config)?.[1]?.split(",").map((scope) => JSON.parse(scope.trim()) as string);
    expect(listed).toEqual([...SCOPES]);
  });

  it("Spectral (spectral:oas + OWASP): no error, and only the warnings docs/api.md lists", () => {
    // Severity 0 is an error: listed with its message so a failure names each.
    const errors = spectral.served.filter((problem) => problem.severity === 0);
    expect(errors.map((problem) => `${describeProblem(problem)}: ${problem.message}`)).toEqual([]);
    expect(spectral.served.filter((problem) => problem.severity === 1).map(describeProblem).sort()).toEqual(LISTED_SPECTRAL_WARNINGS);
  });

  it("Redocly CLI (recommended): valid, no error, the two listed warnings", () => {
    const problems = redocly.problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}`);
    expect(problems.sort()).toEqual([
      "no-unused-components at #/components/responses/MethodNotAllowed",
      "no-unused-components at #/components/schemas/WebhookEvent",
    ]);
    expect(redocly.totals).toMatchObject({ errors: 0, warnings: 2 });
  });

  it("the project's own rules fail a response without the RateLimit field and an unknown scope, and Spectral exits 1", () => {
    const errors = spectral.broken.filter((problem) => problem.severity === 0);
    expect(errors.map((problem) => [problem.code, problem.path.join(".")]).sort()).toEqual([
      ["petstore-rate-limit-headers", "paths./pets.get.responses.200.headers"],
      ["petstore-security-scopes", "paths./pets.post.security.0.bearerAuth.0"],
    ]);
    expect(spectral.exitCode).toBe(1);
  });
});
