// `serve`'s options come from the same resolver as the client's settings: flag, then environment, then default.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/errors.js";
import { resolveServeOptions, type ServeFlags } from "../../src/cli/settings.js";

const resolve = (flags: ServeFlags, env: Record<string, string | undefined> = {}) => resolveServeOptions(flags, { env });

describe("resolveServeOptions", () => {
  it("falls back to the defaults", () => {
    expect(resolve({})).toEqual({ port: 3000, host: "127.0.0.1", db: "./petstore.json", redis: undefined, configFile: undefined, quiet: false, adminKey: undefined, logFormat: "json" });
  });

  it("takes the environment, and a flag wins over it; an empty variable counts as unset", () => {
    const env = { PETSTORE_PORT: "8080", PETSTORE_HOST: "0.0.0.0", PETSTORE_DB: "/var/db.json", PETSTORE_REDIS_URL: "redis://cache:6379/1", PETSTORE_SERVE_CONFIG: "limits.json" };
    expect(resolve({}, env)).toMatchObject({ port: 8080, host: "0.0.0.0", db: "/var/db.json", redis: "redis://cache:6379/1", configFile: "limits.json" });
    expect(resolve({ port: "0", host: "::1", db: "here.json", redis: "redis://other/2", config: "mine.json" }, env)).toMatchObject({
      port: 0, host: "::1", db: "here.json", redis: "redis://other/2", configFile: "mine.json",
    });
    expect(resolve({}, { PETSTORE_PORT: "", PETSTORE_DB: "" })).toMatchObject({ port: 3000, db: "./petstore.json" });
  });

  it.each([
    // The self-signed certificate is kept in the state folder, for clients' --ca-cert.
    [{ https: true }, { selfSigned: true, certDir: expect.stringMatching(/\/\.local\/state\/petstore$/) }],
    [{ cert: "cert.pem", key: "key.pem" }, { certFile: "cert.pem", keyFile: "key.pem" }],
    // --https turns HTTPS on; the files say which certificate.
    [{ https: true, cert: "cert.pem", key: "key.pem" }, { certFile: "cert.pem", keyFile: "key.pem" }],
  ] as [ServeFlags, unknown][])("maps %j onto tls", (flags, tls) => {
    expect(resolve(flags).tls).toEqual(tls);
  });

  it("keeps the self-signed certificate in $XDG_STATE_HOME/petstore, else ~/.local/state/petstore", () => {
    expect(resolve({ https: true }, { XDG_STATE_HOME: "/srv/state" }).tls).toEqual({ selfSigned: true, certDir: "/srv/state/petstore" });
    expect(resolve({ https: true }, { HOME: "/home/me" }).tls).toEqual({ selfSigned: true, certDir: "/home/me/.local/state/petstore" });
  });

  it("serves plain HTTP without those flags", () => {
    expect("tls" in resolve({})).toBe(false);
  });

  it.each([
    [{ cert: "cert.pem" }, "--cert and --key go together"],
    [{ key: "key.pem", https: true }, "--cert and --key go together"],
    [{ cert: "", key: "key.pem" }, "--cert and --key must not be empty"],
    [{ port: "70000" }, "--port must be an integer from 0 to 65535"],
    [{ host: "" }, "--host must not be empty"],
    [{ db: "" }, "--db must not be empty"],
    [{ db: "mysql://db/petstore" }, "--db must be a file path or a postgres://[user@]host[:port]/database URL, not mysql://..."],
    [{ db: "postgres://" }, "the host is missing"],
    [{ db: "postgres://a b/c" }, "this URL cannot be parsed"],
    [{ redis: "redis://cache/zero" }, '"/zero" is not a database number'],
  ] as [ServeFlags, string][])("refuses %j as a usage error", (flags, message) => {
    expect(() => resolve(flags)).toThrow(UsageError);
    expect(() => resolve(flags)).toThrow(message);
  });

  it("refuses a short PETSTORE_ADMIN_KEY", () => {
    expect(() => resolve({}, { PETSTORE_ADMIN_KEY: "short" })).toThrow("PETSTORE_ADMIN_KEY must be at least 24 characters long");
  });

  it("takes the ticket secret from PETSTORE_TICKET_SECRET only, and refuses a short one", () => {
    const secret = "a ticket secret of 32 characters";
    expect(resolve({}, { PETSTORE_TICKET_SECRET: secret }).ticketSecret).toBe(secret);
    expect("ticketSecret" in resolve({}, { PETSTORE_TICKET_SECRET: "" })).toBe(false);
    expect(() => resolve({}, { PETSTORE_TICKET_SECRET: "short" })).toThrow("PETSTORE_TICKET_SECRET must be at least 32 characters long");
  });

  it("takes --public-url (or PETSTORE_PUBLIC_URL) as a scheme, a host and a path without its trailing slash", () => {
    expect(resolve({ publicUrl: "https://api.example.com/" }).publicUrl).toBe("https://api.example.com");
    expect(resolve({}, { PETSTORE_PUBLIC_URL: "https://example.com/petstore/" }).publicUrl).toBe("https://example.com/petstore");
    for (const [url, message] of [
      ["api.example.com", "--public-url must be an absolute http(s) URL"],
      ["ftp://example.com", "--public-url must be an http or https URL"],
      ["https://example.com/?x=1", "--public-url must be a scheme, a host and at most a path"],
    ]) {
      expect(() => resolve({ publicUrl: url })).toThrow(UsageError);
      expect(() => resolve({ publicUrl: url })).toThrow(message!);
    }
  });

  it("takes the webhook settings from their flags or variables, a flag winning, and refuses bad ones", () => {
    expect("webhooks" in resolve({})).toBe(false);
    expect(resolve({ webhookMaxInFlight: "16" }).webhooks).toEqual({ maxInFlight: 16 });
    expect(resolve({}, { PETSTORE_WEBHOOK_MAX_IN_FLIGHT: "8", PETSTORE_WEBHOOK_RETRY_FOR: "1h" }).webhooks).toEqual({ maxInFlight: 8, retryForMs: 3_600_000 });
    expect(resolve({ webhookMaxInFlight: "2" }, { PETSTORE_WEBHOOK_MAX_IN_FLIGHT: "8" }).webhooks).toEqual({ maxInFlight: 2 });
    expect(resolve({ webhooksAllowPrivate: true }).webhooks).toEqual({ allowPrivate: true });
    for (const value of ["0", "257", "4.5", "many"]) {
      expect(() => resolve({ webhookMaxInFlight: value })).toThrow(UsageError);
      expect(() => resolve({ webhookMaxInFlight: value })).toThrow(`--webhook-max-in-flight must be an integer from 1 to 256, got "${value}"`);
    }
    expect(() => resolve({ webhookRetryFor: "30s" })).toThrow('--webhook-retry-for must be at least 1m, got "30s"');
  });
});
