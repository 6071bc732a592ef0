// A server whose certificate is not trusted is running: say so, and how to trust it, rather than
// ask whether a server runs at all.
import { NetworkError } from "../errors.js";

// OpenSSL's verification codes as Node reports them, and Node's own for a name the certificate lacks.
const UNTRUSTED = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
]);
const EXPIRED = new Set(["CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID"]);
const WRONG_NAME = "ERR_TLS_CERT_ALTNAME_INVALID";

const TRUST_IT =
  "If it is `petstore serve --https`, trust the certificate it printed at its start (\"HTTPS certificate ... in <file>\"): " +
  "--ca-cert <file>, PETSTORE_CA_CERT=<file>, or `petstore config set ca-cert <file>`.";

/**
 * The error to report when TLS refused the server's certificate; undefined for any other failure.
 * @example certificateFailure({ code: "DEPTH_ZERO_SELF_SIGNED_CERT", message: "self-signed certificate" }, "https://127.0.0.1:3000", undefined)
 */
export function certificateFailure(error: unknown, origin: string, caCert: string | undefined): NetworkError | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== "string") return undefined;
  const reason = typeof message === "string" && message !== "" ? message : code;
  if (code === WRONG_NAME) {
    const hint = `Use a host name the certificate holds (a \`petstore serve --https\` one holds localhost, 127.0.0.1 and ::1).`;
    return untrusted(`the certificate of ${origin} is not for that host name: ${reason}`, hint);
  }
  if (!UNTRUSTED.has(code) && !EXPIRED.has(code)) return undefined;
  const what = EXPIRED.has(code) ? "has expired or is not valid yet" : "is not trusted";
  const hint =
    caCert === undefined
      ? TRUST_IT
      : `The certificates in ${caCert} (--ca-cert) do not include it. A \`petstore serve --https\` makes a new one at each start: ` +
        "point --ca-cert at the file it printed at its latest start.";
  return untrusted(`the certificate of ${origin} ${what} (${reason})`, hint);
}

function untrusted(message: string, hint: string): NetworkError {
  return new NetworkError(message, hint, "untrusted_certificate");
}
