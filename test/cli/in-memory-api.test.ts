// The in-memory API may only answer what the real server can: the checks that hold it to the
// OpenAPI document, which make the verb tests worth their name.
import { afterEach, describe, expect, it } from "vitest";
import { forgetConformanceFailures } from "../helpers/conformance.js";
import { apiError, inMemoryApi, type ScriptedAnswer } from "./helpers/in-memory-api.js";

const send = (answer: ScriptedAnswer, method: "GET" | "POST" | "DELETE" = "GET", path = "/pets") =>
  inMemoryApi([answer]).transport.send({ method, url: `http://127.0.0.1:3999/v1${path}`, headers: {}, body: undefined });

afterEach(() => forgetConformanceFailures());

describe("inMemoryApi", () => {
  it("hands a conformant answer to the client, with the rate-limit headers the server always sends", async () => {
    const attempt = await send({ status: 200, body: [] });
    expect(attempt).toMatchObject({ kind: "answer", status: 200, text: "[]" });
    expect(attempt.kind === "answer" && attempt.headers["x-ratelimit-remaining"]).toBe("59");
  });

  it.each([
    ["a status the operation does not declare", apiError(404, "not_found", "no"), "GET", "/pets", /declares .*not 404/],
    ["a body that breaks the schema", { status: 200, body: [{ id: "one" }] }, "GET", "/pets", /the body breaks listPets \(GET \/pets\) 200's schema/],
    ["a 503 without Retry-After", apiError(503, "storage_unavailable", "busy"), "GET", "/pets", /required header retry-after is missing/],
    ["getPet without its deprecation headers", { status: 200, body: { id: 1, name: "a", categoryId: 1, status: "sold" } }, "GET", "/pets/1", /required header deprecation is missing/],
    ["a header the document does not declare", { status: 204, headers: { "x-extra": "1" } }, "DELETE", "/keys/key_1", /header x-extra is not declared/],
  ] as const)("refuses %s", async (_name, answer, method, path, problem) => {
    await expect(send(answer, method, path)).rejects.toThrow(problem);
  });
});
