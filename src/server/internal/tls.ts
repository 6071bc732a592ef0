// The certificate for `serve --https` / `--cert --key`: listhen's own self-signed one for local
// use, or the operator's PEM files, read and checked here so that a wrong file stops the start
// with a message naming it rather than failing at the first TLS handshake.
import { createPrivateKey, X509Certificate } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HTTPSOptions } from "listhen";
import { messageOf } from "../../support/error-text.js";
import { writeFileAtomic } from "../../support/json-file.js";

/**
 * HTTPS: listhen's self-signed certificate (local use), or a real one from PEM files. A
 * self-signed one is made at each start; with `certDir`, it is kept there for clients to trust.
 */
export type ServeTls = { selfSigned: true; certDir?: string } | { certFile: string; keyFile: string };

/** What listhen's `https` option takes: true for its generated certificate, or the PEM texts. */
export async function listhenHttps(tls: ServeTls): Promise<true | Required<Pick<HTTPSOptions, "cert" | "key">>> {
  if ("selfSigned" in tls) return true;
  const cert = await readPem(tls.certFile, "--cert");
  const key = await readPem(tls.keyFile, "--key");
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch (error) {
    throw new Error(`--cert ${tls.certFile} is not a PEM certificate: ${messageOf(error)}`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch (error) {
    throw new Error(`--key ${tls.keyFile} is not a PEM private key: ${messageOf(error)}`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new Error(`--key ${tls.keyFile} is not the private key of the certificate in ${tls.certFile}`);
  }
  return { cert: fromFirstBlock(cert), key: fromFirstBlock(key) };
}

/**
 * listhen takes text that starts with "--" as the PEM itself and anything else as a path, so drop
 * what some tools write before the first block (e.g. openssl's "Bag Attributes"); a chain stays whole.
 */
function fromFirstBlock(pem: string): string {
  return pem.slice(Math.max(0, pem.indexOf("-----BEGIN")));
}

async function readPem(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read ${flag} ${path}: ${messageOf(error)}`);
  }
}

/**
 * Writes the self-signed certificate (the public part; its key never leaves memory) where a client
 * can be pointed at it (`--ca-cert`), one file per address, replaced at each start.
 * @example await keepCertificate(pem, "/home/me/.local/state/petstore", "127.0.0.1", 3000) // ".../https-127.0.0.1-3000.pem"
 */
export async function keepCertificate(pem: string, dir: string, host: string, port: number): Promise<string> {
  const file = join(dir, `https-${host.replace(/[^A-Za-z0-9.-]/g, "_")}-${port}.pem`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, pem, { mode: 0o644 });
  return file;
}
