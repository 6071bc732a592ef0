// `serve --cors-origin` and PETSTORE_CORS_ORIGINS: resolved like every serve setting, checked
// before anything starts (exit 2), and reaching the server.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/errors.js";
import { resolveServeOptions, type ServeFlags } from "../../src/cli/settings.js";
import { startServeProcess } from "../helpers/serve-process.js";
import { runCli } from "./helpers/run-cli.js";

const resolve = (flags: ServeFlags, env: Record<string, string | undefined> = {}) => resolveServeOptions(flags, { env });

describe("resolving --cors-origin", () => {
  it("off unless given; the flag wins over the environment; an empty variable counts as unset", () => {
    expect("corsOrigins" in resolve({})).toBe(false);
    expect("corsOrigins" in resolve({}, { PETSTORE_CORS_ORIGINS: "" })).toBe(false);
    expect(resolve({}, { PETSTORE_CORS_ORIGINS: "https://a.example" }).corsOrigins).toEqual(["https://a.example"]);
    expect(resolve({ corsOrigin: "https://b.example" }, { PETSTORE_CORS_ORIGINS: "https://a.example" }).corsOrigins).toEqual(["https://b.example"]);
  });

  it("each origin as browsers send it: lower-case host, no default port, no trailing slash, duplicates once", () => {
    expect(resolve({ corsOrigin: "https://App.Example.com:443/, http://localhost:5173,http://127.0.0.1:8080,https://app.example.com" }).corsOrigins).toEqual([
      "https://app.example.com",
      "http://localhost:5173",
      "http://127.0.0.1:8080",
    ]);
  });

  it.each([
    ["*", '--cors-origin must name each origin, not "*"'],
    ["null", '--cors-origin must name each origin, not "null"'],
    ["app.example.com", '--cors-origin must be an origin such as https://app.example.com (scheme, host and port; no path), got "app.example.com"'],
    ["https://app.example.com/path", 'got "https://app.example.com/path"'],
    ["https://app.example.com?x=1", 'got "https://app.example.com?x=1"'],
    ["https://user@app.example.com", 'got "https://user@app.example.com"'],
    ["ftp://app.example.com", 'got "ftp://app.example.com"'],
    ["https://a.example,,https://b.example", '--cors-origin must be a comma-separated list of origins, got "https://a.example,,https://b.example"'],
  ])("refuses %j", (value, message) => {
    expect(() => resolve({ corsOrigin: value })).toThrow(UsageError);
    expect(() => resolve({ corsOrigin: value })).toThrow(message);
  });
});

describe("petstore serve --cors-origin (built CLI)", () => {
  it("a malformed origin: usage error on stderr, exit 2, nothing on stdout", async () => {
    const result = await runCli(["serve", "--port", "0", "--cors-origin", "app.example.com"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('--cors-origin must be an origin such as https://app.example.com (scheme, host and port; no path), got "app.example.com"');
  });

  it("PETSTORE_CORS_ORIGINS reaches the server: its preflight is answered", async () => {
    const server = await startServeProcess({ env: { PETSTORE_CORS_ORIGINS: "http://app.example.test" }, args: ["--quiet"] });
    try {
      const response = await fetch(`${server.baseUrl}/pets`, { method: "OPTIONS", headers: { origin: "http://app.example.test", "access-control-request-method": "GET" } });
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("http://app.example.test");
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
