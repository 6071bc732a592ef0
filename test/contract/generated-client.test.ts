// A client no one here wrote: openapi-typescript generates types from the served document,
// tsc type-checks an openapi-fetch program against them, and the compiled program runs against
// a live server, its requests checked against the document like every other test's.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedFetch, compileProgram, programDir, ROOT, STRICT_COMPILER_OPTIONS } from "../helpers/generated-program.js";
import { startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

const CLIENT = join(ROOT, "test/fixtures/foreign-client/client.ts");
const TSCONFIG = { compilerOptions: STRICT_COMPILER_OPTIONS, files: ["client.ts", "schema.ts"] };

let server: TestServer;
let dir: string;
let removeDir: () => Promise<void>;
beforeAll(async () => {
  // A clock that stands still: the 429 cannot miss because a minute turned between two requests.
  server = await startTestServer({ now: testClock().now });
  // The program resolves openapi-fetch and @types/node as an integrator's project would.
  ({ dir, remove: removeDir } = await programDir("petstore-foreign-client-"));
});
afterAll(async () => {
  await server.close();
  await removeDir();
});

describe("an openapi-fetch client generated from GET /v1/openapi.json", () => {
  it("type-checks, then lists, creates, gets, and meets a 401 and a 429", async () => {
    const served = await server.api("/openapi.json", { key: null });
    await writeFile(join(dir, "schema.ts"), astToString(await openapiTS(await served.text(), { silent: true })));
    const compiled = await compileProgram(dir, TSCONFIG, CLIENT);
    expect(compiled.tscOutput).toBe("");

    const client = await compiled.load();
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
