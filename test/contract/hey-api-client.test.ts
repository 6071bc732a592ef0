// A second client no one here wrote, from another generator: @hey-api/openapi-ts (its CLI, as an
// integrator runs it) writes a fetch client and SDK from the served document, tsc type-checks
// them with a typed program (test/fixtures/hey-api-client/), and the compiled program runs against
// a live server, its requests checked against the document like every other test's.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedFetch, compileProgram, programDir, ROOT, STRICT_COMPILER_OPTIONS } from "../helpers/generated-program.js";
import { startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

const exec = promisify(execFile);
const PROGRAM = join(ROOT, "test/fixtures/hey-api-client/client.ts");
const OPENAPI_TS = join(ROOT, "node_modules/.bin/openapi-ts");

// As strict as the openapi-typescript program's, less exactOptionalPropertyTypes: the generated
// fetch client itself does not compile under it (hey-api 0.95's own code, not our document).
const TSCONFIG = {
  compilerOptions: { ...STRICT_COMPILER_OPTIONS, exactOptionalPropertyTypes: false },
  include: ["client.ts", "generated/**/*.ts"],
};

let server: TestServer;
let dir: string;
let removeDir: () => Promise<void>;
beforeAll(async () => {
  // A clock that stands still: the 429 cannot miss because a minute turned between two requests.
  server = await startTestServer({ now: testClock().now });
  ({ dir, remove: removeDir } = await programDir("petstore-hey-api-client-"));
});
afterAll(async () => {
  await server.close();
  await removeDir();
});

describe("a @hey-api/openapi-ts client generated from GET /v1/openapi.json", () => {
  it("generates, type-checks, then creates, lists, updates, gets, and meets a 412, a 401 and a 429", async () => {
    const served = await server.api("/openapi.json", { key: null });
    await writeFile(join(dir, "openapi.json"), await served.text());
    const generate = ["-i", join(dir, "openapi.json"), "-o", join(dir, "generated"), "-c", "@hey-api/client-fetch", "--silent", "--no-log-file"];
    await exec(OPENAPI_TS, generate, { cwd: dir });
    const compiled = await compileProgram(dir, TSCONFIG, PROGRAM);
    expect(compiled.tscOutput).toBe("");

    const client = await compiled.load();
    const seen = await client.run(server.baseUrl, server.adminKey, checkedFetch);
    const pet = { id: seen.create.pet.id, name: "Generated", categoryId: 8, status: "pending" };
    expect(seen.create).toEqual({ status: 201, pet, location: `/v1/pets/${pet.id}` });
    expect(seen.list).toEqual({ status: 200, names: ["Generated"] });
    const renamed = { ...pet, name: "Regenerated" };
    expect(seen.update).toEqual({ status: 200, pet: renamed, contentType: "application/merge-patch+json", etag: `"pet-${pet.id}-2"` });
    expect(seen.staleUpdate).toEqual({ status: 412, code: "precondition_failed" });
    expect(seen.get).toEqual({ status: 200, pet: renamed, deprecation: "@1767225600" });
    expect(seen.unauthorized).toEqual({ status: 401, code: "unauthorized" });
    expect(seen.rateLimited).toEqual({ statuses: [200, 429], code: "rate_limited", retryAfter: expect.stringMatching(/^\d+$/) });
  }, 60_000);
});
