// `petstore orders ...` and `petstore inventory` end to end: the built binary against `petstore
// serve`. The verb cases run in process against the real app in test/cli/verbs/orders.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { runCli, type RunOptions } from "../helpers/run-cli.js";

let server: ServeProcess;

beforeAll(async () => {
  server = await startServeProcess();
  for (const name of ["Rex", "Tom"]) expect((await petstore(["pets", "add", "--name", name, "--category", "1"])).code).toBe(0);
});
afterAll(() => server.stop());

const petstore = (args: string[], options: RunOptions = {}) =>
  runCli(args, { ...options, env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey, ...options.env } });

describe("orders end to end", () => {
  it("place, approve, deliver, list, inventory; a refused order exit 1, an unknown one exit 4", async () => {
    const placed = await petstore(["orders", "place", "1"]);
    expect(placed).toMatchObject({ code: 0, stderr: "" });
    expect(placed.stdout).toMatch(/^1\t1\tplaced\t\S+Z\t\S+Z\n$/);
    expect(await petstore(["orders", "approve", "1"])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^1\t1\tapproved\t/), stderr: "" });
    expect(await petstore(["orders", "deliver", "1"])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^1\t1\tdelivered\t/), stderr: "" });
    expect(await petstore(["orders", "list"])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^1\t1\tdelivered\t[^\n]+\n$/), stderr: "" });
    expect(await petstore(["inventory"])).toEqual({ code: 0, stdout: "available\t1\npending\t0\nsold\t1\n", stderr: "" });
    expect(await petstore(["orders", "place", "1"])).toMatchObject({ code: 1, stdout: "", stderr: expect.stringMatching(/pet 1 is sold, not available/) });
    expect(await petstore(["orders", "get", "99"])).toMatchObject({ code: 4, stdout: "" });
  });
});
