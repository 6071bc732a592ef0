// A client no one here wrote: openapi-typescript generates types from the served document,
// tsc type-checks an openapi-fetch program against them, and the compiled program runs against
// a live server, its requests checked against the document like every other test's.
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkResponse } from "../helpers/conformance.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLIENT = join(ROOT, "test/fixtures/foreign-client/client.ts");
const TSC = join(ROOT, "node_modules/typescript/lib/tsc.js");

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    outDir: "out",
  },
  files: ["client.ts", "schema.ts"],
};

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), "petstore-foreign-client-"));
  // The program resolves openapi-fetch and @types/node as an integrator's project would.
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("an openapi-fetch client generated from GET /v1/openapi.json", () => {
  it("type-checks, then lists, creates, gets, and meets a 401 and a 429", async () => {
    const served = await server.api("/openapi.json", { key: null });
    await writeFile(join(dir, "schema.ts"), astToString(await openapiTS(await served.text(), { silent: true })));
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    await copyFile(CLIENT, join(dir, "client.ts"));

    const compiled = await exec(process.execPath, [TSC, "-p", dir]).catch((error: { stdout: string }) => error);
    expect(compiled.stdout).toBe("");

    const client = await import(pathToFileURL(join(dir, "out/client.js")).href);
    const seen = await client.run(server.baseUrl, server.adminKey, checkedFetch);
    const pet = { id: seen.create.pet.id, name: "Foreign", categoryId: 7, status: "pending" };
    expect(seen.create).toEqual({ status: 201, pet, location: `/v1/pets/${pet.id}` });
    expect(seen.list).toEqual({ status: 200, names: ["Foreign"] });
    expect(seen.get).toEqual({ status: 200, pet, sunset: "Thu, 05 Dec 2030 00:00:00 GMT" });
    expect(seen.unauthorized).toEqual({ status: 401, code: "unauthorized" });
    expect(seen.rateLimited).toEqual({ statuses: [200, 429], code: "rate_limited", retryAfter: expect.stringMatching(/^\d+$/) });
    // tsc over the generated types takes seconds, and many more on a loaded two-core box.
  }, 60_000);
});

/** The client's own requests are held to the document too. */
async function checkedFetch(request: Request): Promise<Response> {
  const response = await fetch(request);
  await checkResponse(request.method, request.url, response.clone());
  return response;
}
