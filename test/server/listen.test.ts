// What the listener adds for self-hosters: HTTPS with listhen's own certificate or a real one,
// every address when bound to all of them, and the limits it applies quoted exactly.
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { request } from "node:https";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/contract/openapi.js";
import { DEFAULT_DEADLINES, kibibytes, MAX_BODY_BYTES, MAX_HEADER_BYTES, seconds } from "../../src/contract/limits.js";
import { runServe } from "../../src/server/serve.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { tempDbPath } from "../helpers/serve-process.js";
import { sendRaw, requestHead } from "../fault/http-raw.js";
import { expectErrorAnswer } from "../fault/http-answers.js";

const running: TestServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(overrides: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer(overrides);
  running.push(server);
  return server;
}

interface TlsAnswer {
  status: number;
  body: string;
  certificate: X509Certificate;
}

/** GET over HTTPS; `ca` trusts that certificate, otherwise any certificate is accepted. */
function httpsGet(url: string, ca?: string): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { rejectUnauthorized: ca !== undefined, ca, agent: false }, (res) => {
      const raw = (res.socket as TLSSocket).getPeerX509Certificate();
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, certificate: raw! }));
    });
    req.on("error", reject);
    req.end();
  });
}

let pem: { dir: string; cert: string; key: string };
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "petstore-tls-"));
  const [cert, key] = [join(dir, "cert.pem"), join(dir, "key.pem")];
  // A throwaway certificate for 127.0.0.1, made the way an operator would.
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
    "-subj", "/CN=petstore-test", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  pem = { dir, cert, key };
});

describe("HTTPS", () => {
  it("{ selfSigned: true }: listhen's own certificate; /healthz answers 200 over https", async () => {
    const server = await start({ tls: { selfSigned: true } });
    expect(server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server.stdout()).toMatch(/^petstore listening on https:\/\/127\.0\.0\.1:\d+\/v1 \(db /);
    const answer = await httpsGet(`${server.origin}/healthz`);
    expect(answer).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(answer.certificate.checkIP("127.0.0.1")).toBe("127.0.0.1");
  }, 60_000);

  it("{ certFile, keyFile }: presents that certificate, which a client trusting it accepts", async () => {
    const server = await start({ tls: { certFile: pem.cert, keyFile: pem.key } });
    const answer = await httpsGet(`${server.baseUrl}/openapi.json`, await readFile(pem.cert, "utf8"));
    expect(answer.status).toBe(200);
    expect(answer.certificate.fingerprint256).toBe(new X509Certificate(await readFile(pem.cert)).fingerprint256);
  });

  it.each([
    ["a missing certificate file", () => ({ certFile: join(pem.dir, "nope.pem"), keyFile: pem.key }), /cannot read --cert .*nope\.pem: ENOENT/],
    ["a key file that is not a key", () => ({ certFile: pem.cert, keyFile: pem.cert }), /--key .*cert\.pem is not a PEM private key/],
    ["a certificate file that is not a certificate", () => ({ certFile: pem.key, keyFile: pem.key }), /--cert .*key\.pem is not a PEM certificate/],
  ])("%s stops the start: exit 1 with the file named", async (_label, tls, message) => {
    let stderr = "";
    const io = { stdout: { write: () => true }, stderr: { write: (chunk: string) => (stderr += chunk) } };
    const options = { port: 0, host: "127.0.0.1", db: await tempDbPath(), configFile: undefined, quiet: true, adminKey: "ps_listen_test_admin_key_0123456789", tls: tls() };
    expect(await runServe(options, io, { once: () => undefined })).toBe(1);
    expect(stderr).toMatch(message);
  });

  it("a key that does not belong to the certificate stops the start", async () => {
    const other = join(pem.dir, "other-key.pem");
    execFileSync("openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", other], { stdio: "ignore" });
    await expect(startTestServer({ tls: { certFile: pem.cert, keyFile: other } })).rejects.toThrow(/is not the private key of the certificate/);
  });
});

describe("the port", () => {
  it("a port listhen's finder will not take (6000, blocked by browsers) is an error, never another port", async () => {
    await expect(startTestServer({ port: 6000 })).rejects.toThrow(/^cannot listen on 127\.0\.0\.1:6000: /);
  });
});

describe("addresses", () => {
  it("on 0.0.0.0: the first line as always, then one line per network address of the machine", async () => {
    const server = await start({ host: "0.0.0.0" });
    const port = new URL(server.baseUrl).port;
    const [first, ...rest] = server.stdout().trimEnd().split("\n");
    const others = rest.filter((line) => line.startsWith("petstore also listening on "));
    expect(rest.at(-1)).toBe(`petstore API reference on http://127.0.0.1:${port}/docs`);
    expect(first).toMatch(new RegExp(`^petstore listening on http://127\\.0\\.0\\.1:${port}/v1 \\(db `));
    const expected = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && !address.internal && address.family === "IPv4" && !address.address.startsWith("169.254."))
      .map((address) => `petstore also listening on http://${address!.address}:${port}/v1`);
    expect(others.sort()).toEqual([...new Set(expected)].sort());
    for (const line of others) expect((await fetch(`${line.split(" ").at(-1)}/openapi.json`)).status).toBe(200);
  });

  it("on 127.0.0.1: one line, then the API reference's", async () => {
    const server = await start({ host: "127.0.0.1" });
    const lines = server.stdout().trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(`petstore API reference on ${server.origin}/docs`);
  });
});

describe("the limits quoted are the limits applied", () => {
  it("the document and the error meanings quote the configured numbers", () => {
    const description = (buildOpenApiDocument().info as { description: string }).description;
    expect(description).toContain(`headers within ${seconds(DEFAULT_DEADLINES.headersMs)}, the whole request within ${seconds(DEFAULT_DEADLINES.requestMs)}`);
    expect(description).toContain(`(over ${kibibytes(MAX_HEADER_BYTES)})`);
    expect([seconds(10_000), kibibytes(MAX_HEADER_BYTES), kibibytes(MAX_BODY_BYTES)]).toEqual(["10 s", "16 KiB", "64 KiB"]);
  });

  it(`headers up to ${kibibytes(MAX_HEADER_BYTES)} pass; over it, 431 quoting exactly that`, async () => {
    const server = await start({});
    const head = (padding: number) => requestHead("GET /v1/pets HTTP/1.1", [`Authorization: Bearer ${server.adminKey}`, `X-Padding: ${"p".repeat(padding)}`]);
    // No half-close: over PostgreSQL the answer comes after Node would have closed a half-closed connection.
    expect((await sendRaw(server.origin, head(MAX_HEADER_BYTES - 1024), { end: false }))?.status).toBe(200);
    const refused = (await sendRaw(server.origin, head(MAX_HEADER_BYTES + 1)))!;
    const body = expectErrorAnswer(refused.status, refused.headers["content-type"], refused.body, { status: 431, code: "headers_too_large" });
    expect(body.message).toBe(`the request headers are larger than ${kibibytes(MAX_HEADER_BYTES)}`);
  });

  it(`a body over ${kibibytes(MAX_BODY_BYTES)}: 413 quoting exactly that`, async () => {
    const server = await start({});
    const response = await fetch(`${server.baseUrl}/pets`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "x", categoryId: 1, pad: "p".repeat(MAX_BODY_BYTES) }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toContain(`${kibibytes(MAX_BODY_BYTES)} (${MAX_BODY_BYTES} bytes)`);
  });
});
