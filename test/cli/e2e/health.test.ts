// `petstore health`: the built CLI against a real server's /readyz, for HEALTHCHECKs and wait loops.
import { rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readinessUrl } from "../../../src/cli/commands/health.js";
import { startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { runCli } from "../helpers/run-cli.js";

let server: ServeProcess;
beforeAll(async () => {
  server = await startServeProcess();
});
afterAll(async () => {
  await server.stop();
});

describe("petstore health", () => {
  it("prints `ready` and exits 0 when the server is ready", async () => {
    expect(await runCli(["health", "--url", `${server.origin}/readyz`])).toEqual({ code: 0, stdout: "ready\n", stderr: "" });
  });

  it("prints the server's answer with --json", async () => {
    expect(await runCli(["health", "--url", `${server.origin}/readyz`, "--json"])).toEqual({ code: 0, stdout: '{"status":"ready"}\n', stderr: "" });
  });

  it("asks /readyz on the base URL's host when no --url is given", async () => {
    expect(await runCli(["health"], { env: { PETSTORE_BASE_URL: server.baseUrl } })).toEqual({ code: 0, stdout: "ready\n", stderr: "" });
  });

  it("exits 6 with the address when nothing answers there", async () => {
    const result = await runCli(["health", "--url", "http://127.0.0.1:9/readyz"]);
    expect(result).toMatchObject({ code: 6, stdout: "" });
    expect(result.stderr).toBe("Error: connection refused by http://127.0.0.1:9\nIs petstore serving at http://127.0.0.1:9? Check --url: the server's address and port.\n");
  });

  it.each([["not a url"], ["ftp://127.0.0.1/readyz"]])("refuses --url %j with exit 2 before any request", async (url) => {
    const result = await runCli(["health", "--url", url]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toMatch(/^Error: --url must be an (absolute )?http:\/\/ or https:\/\/ URL/);
  });
});

describe("petstore health against a server that is not ready", () => {
  it("exits 1 and says what is down (the server's 503) when the db directory has gone", async () => {
    const broken = await startServeProcess();
    try {
      await rm(dirname(broken.dbPath), { recursive: true, force: true });
      const result = await runCli(["health", "--url", `${broken.origin}/readyz`]);
      expect(result).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr).toMatch(/^Error: not ready: db directory \S+: .*ENOENT.* \(storage_unavailable, HTTP 503\)\n/);
    } finally {
      await broken.stop();
    }
  });
});

describe("petstore health against something that is not petstore", () => {
  let requests: IncomingHttpHeaders[];
  let origin: string;
  const other = createServer((req, res) => {
    requests.push(req.headers);
    res.writeHead(200, { "content-type": "application/json" }).end(req.url === "/ok" ? '{"status":"ready"}' : '{"up":true}');
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

  it("never sends the API key: the readiness URL needs none and may be anyone's", async () => {
    requests = [];
    const result = await runCli(["health", "--url", `${origin}/ok`], { env: { PETSTORE_API_KEY: "ps_secret_key_never_sent_0123456789" } });
    expect(result).toEqual({ code: 0, stdout: "ready\n", stderr: "" });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.authorization).toBeUndefined();
  });

  it("exits 1 when a 200 is not petstore's readiness answer", async () => {
    const result = await runCli(["health", "--url", `${origin}/other`]);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toBe(`Error: ${origin}/other answered 200 but not {"status":"ready"}: is it petstore's /readyz?\n`);
  });
});

describe("the readiness URL", () => {
  it.each([
    ["http://127.0.0.1:3000/v1", "http://127.0.0.1:3000/readyz"],
    ["https://api.example.com/v1/", "https://api.example.com/readyz"],
  ])("is /readyz on the host of the base URL %s", (baseUrl, expected) => {
    expect(readinessUrl(undefined, baseUrl)).toBe(expected);
  });
});
