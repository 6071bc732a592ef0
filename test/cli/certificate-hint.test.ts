// A refused certificate is named as such, with how to trust it; other failures are left to the usual hints.
import { describe, expect, it } from "vitest";
import { certificateFailure } from "../../src/cli/internal/certificate-hint.js";

const ORIGIN = "https://127.0.0.1:3000";
const tlsError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("certificateFailure", () => {
  it("a self-signed certificate: not trusted, and the three ways to trust it", () => {
    const error = certificateFailure(tlsError("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"), ORIGIN, undefined);
    expect(error?.message).toBe(`the certificate of ${ORIGIN} is not trusted (self-signed certificate)`);
    expect(error?.hint).toMatch(/--ca-cert <file>, PETSTORE_CA_CERT=<file>, or `petstore config set ca-cert <file>`\.$/);
    expect(error?.code).toBe("untrusted_certificate");
  });

  it("with --ca-cert given: that file does not hold it, and serve --https makes a new one at each start", () => {
    const error = certificateFailure(tlsError("UNABLE_TO_VERIFY_LEAF_SIGNATURE", "unable to verify the first certificate"), ORIGIN, "/tmp/ca.pem");
    expect(error?.hint).toMatch(/^The certificates in \/tmp\/ca\.pem \(--ca-cert\) do not include it\. A `petstore serve --https` makes a new one at each start/);
  });

  it("expired, and a name the certificate lacks", () => {
    expect(certificateFailure(tlsError("CERT_HAS_EXPIRED", "certificate has expired"), ORIGIN, undefined)?.message).toBe(
      `the certificate of ${ORIGIN} has expired or is not valid yet (certificate has expired)`,
    );
    const wrongName = certificateFailure(tlsError("ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match"), "https://10.0.0.5:3000", undefined);
    expect(wrongName?.message).toBe("the certificate of https://10.0.0.5:3000 is not for that host name: Hostname/IP does not match");
    expect(wrongName?.hint).toMatch(/localhost, 127\.0\.0\.1 and ::1/);
  });

  it("leaves other failures alone", () => {
    expect(certificateFailure(tlsError("ECONNREFUSED", "connect ECONNREFUSED"), ORIGIN, undefined)).toBeUndefined();
    expect(certificateFailure(new Error("no code"), ORIGIN, undefined)).toBeUndefined();
    expect(certificateFailure(undefined, ORIGIN, undefined)).toBeUndefined();
  });
});
