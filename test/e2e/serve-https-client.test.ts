// `serve --https` and its own client: the server says where its self-signed certificate is, and
// the CLI trusts it with --ca-cert, PETSTORE_CA_CERT or the config file's ca-cert; without it, the
// CLI names the certificate problem and the way to trust it, not a missing server.
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { connect } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";
import { runCli, type RunOptions } from "../cli/helpers/run-cli.js";

let server: ServeProcess;
let stateHome: string;
let certFile: string;
beforeAll(async () => {
  stateHome = await mkdtemp(join(tmpdir(), "petstore-state-"));
  server = await startServeProcess({ args: ["--https", "--quiet"], env: { XDG_STATE_HOME: stateHome } });
  const line = /^petstore HTTPS certificate \(self-signed, made at this start\) in (\S+): clients trust it with --ca-cert (\S+)$/m.exec(server.stdout());
  expect(line, server.stdout()).not.toBeNull();
  certFile = line![1]!;
  expect(line![2]).toBe(certFile);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(stateHome, { recursive: true, force: true });
});

const petstore = (args: string[], options: RunOptions = {}) =>
  runCli(args, { ...options, env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey, ...options.env } });

/** The certificate the server presents on a TLS handshake. */
function presented(origin: string): Promise<X509Certificate> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()!);
      socket.end();
    });
    socket.on("error", reject);
  });
}

describe("serve --https", () => {
  it("prints where its certificate is: in the state folder, named by address, the one it presents", async () => {
    expect(server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(dirname(certFile)).toBe(join(stateHome, "petstore"));
    expect(basename(certFile)).toBe(`https-127.0.0.1-${new URL(server.baseUrl).port}.pem`);
    const kept = new X509Certificate(await readFile(certFile, "utf8"));
    expect(kept.fingerprint256).toBe((await presented(server.origin)).fingerprint256);
  });
});

describe("the CLI against serve --https", () => {
  it("without a CA: exit 6, names the certificate problem and how to trust it, not a missing server", async () => {
    const result = await petstore(["status"]);
    expect(result.code).toBe(6);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `Error: the certificate of ${server.origin} is not trusted (self-signed certificate)\n` +
        'If it is `petstore serve --https`, trust the certificate it printed at its start ("HTTPS certificate ... in <file>"): ' +
        "--ca-cert <file>, PETSTORE_CA_CERT=<file>, or `petstore config set ca-cert <file>`.\n",
    );
    expect(result.stderr).not.toMatch(/Is a server running/);
  });

  it("--json: the error's code says it", async () => {
    const result = await petstore(["status", "--json"]);
    expect(result.code).toBe(6);
    expect(JSON.parse(result.stderr)).toEqual({ code: "untrusted_certificate", message: `the certificate of ${server.origin} is not trusted (self-signed certificate)` });
  });

  it("--ca-cert <file>: trusted, exit 0", async () => {
    const result = await petstore(["--ca-cert", certFile, "status"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Server\s+reachable/);
  });

  it("PETSTORE_CA_CERT: trusted, exit 0", async () => {
    const result = await petstore(["pets", "list", "--json"], { env: { PETSTORE_CA_CERT: certFile } });
    expect(result).toEqual({ code: 0, stdout: "[]\n", stderr: "" });
  });

  it("ca-cert in the config file, set with `config set` (kept as an absolute path)", async () => {
    const home = await mkdtemp(join(tmpdir(), "petstore-cfg-"));
    const config = join(home, "config.json");
    const set = await runCli(["config", "set", "ca-cert", certFile], { env: { PETSTORE_CONFIG: config } });
    expect(set.code).toBe(0);
    expect(JSON.parse(await readFile(config, "utf8"))).toEqual({ caCert: certFile });
    const result = await petstore(["pets", "list", "--json"], { env: { PETSTORE_CONFIG: config } });
    expect(result).toEqual({ code: 0, stdout: "[]\n", stderr: "" });
    await rm(home, { recursive: true, force: true });
  });

  it("a relative ca-cert in the config file is relative to the file's folder", async () => {
    const home = await mkdtemp(join(tmpdir(), "petstore-cfg-"));
    await writeFile(join(home, "server.pem"), await readFile(certFile));
    await writeFile(join(home, "config.json"), JSON.stringify({ caCert: "server.pem" }));
    const result = await petstore(["pets", "list", "--json"], { env: { PETSTORE_CONFIG: join(home, "config.json") } });
    expect(result).toEqual({ code: 0, stdout: "[]\n", stderr: "" });
    await rm(home, { recursive: true, force: true });
  });

  it("the flag wins over the environment", async () => {
    const result = await petstore(["--ca-cert", certFile, "pets", "list", "--json"], { env: { PETSTORE_CA_CERT: "/nonexistent.pem" } });
    expect(result.code).toBe(0);
  });

  it("another certificate: exit 6, saying the file does not hold the server's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "petstore-other-ca-"));
    const [cert, key] = [join(dir, "other.pem"), join(dir, "other.key")];
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=other"], { stdio: "ignore" });
    const result = await petstore(["--ca-cert", cert, "status"]);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(`The certificates in ${cert} (--ca-cert) do not include it.`);
    await rm(dir, { recursive: true, force: true });
  });

  it("a file that cannot be read, or holds no certificate: exit 2, naming it", async () => {
    const missing = await petstore(["--ca-cert", "/nonexistent/ca.pem", "status"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^Error: cannot read the CA certificate file \/nonexistent\/ca\.pem \(--ca-cert, PETSTORE_CA_CERT or ca-cert in the config file\): ENOENT/);
    const dir = await mkdtemp(join(tmpdir(), "petstore-not-pem-"));
    await writeFile(join(dir, "x.pem"), "not a certificate\n");
    const notPem = await petstore(["--ca-cert", join(dir, "x.pem"), "status"]);
    expect(notPem.code).toBe(2);
    expect(notPem.stderr).toMatch(/holds no PEM certificate/);
    await rm(dir, { recursive: true, force: true });
  });
});
