// The built client against a server that misbehaves on purpose (test/helpers/hostile-server.ts):
// for every case one clear line on stderr (then at most a hint), the documented exit code, no
// stack trace, no hang, bounded memory, and the key never sent to another origin.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES } from "../../../src/cli/http.js";
import { ESCAPE_MESSAGE, useHostileServers } from "../../helpers/hostile-server.js";
import { BIN } from "../../helpers/serve-process.js";
import { runCli, tempHome, type CliResult } from "../helpers/run-cli.js";

const KEY = `ps_${"k".repeat(40)}`;

const servers = useHostileServers();

/** `petstore <args>` against one misbehaviour, with the key as a flag (paired with --base-url). */
function run(name: string, args: string[], extra: string[] = []): Promise<CliResult & { ms: number }> {
  const started = Date.now();
  return runCli([...args, "--base-url", servers.hostile.baseUrl(name), "--api-key", KEY, ...extra]).then((result) => ({ ...result, ms: Date.now() - started }));
}

/** The lines of stderr; the first is the error, never a stack frame. */
function expectOneError(stderr: string, first: RegExp): string[] {
  const lines = stderr.trimEnd().split("\n");
  expect(lines[0]).toMatch(first);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(lines.length).toBeLessThanOrEqual(2);
  return lines;
}

describe("answers too large or too slow", () => {
  it("stops reading a 1 GiB body past the 32 MiB cap, fast and with bounded memory", async () => {
    const before = servers.hostile.bytesSent();
    const home = await tempHome();
    const child = spawn(process.execPath, [BIN, "pets", "list", "--base-url", servers.hostile.baseUrl("huge"), "--api-key", KEY], {
      env: { PATH: process.env.PATH, HOME: home, PETSTORE_CONFIG: join(home, "config.json") },
    });
    let stderr = "";
    let peakKiB = 0;
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    // VmHWM is the process's peak resident set so far; sampled until it exits.
    const sampler = setInterval(() => (peakKiB = Math.max(peakKiB, vmHwmKiB(child.pid))), 20);
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    clearInterval(sampler);
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    const read = servers.hostile.bytesSent() - before;
    expect(read).toBeGreaterThan(MAX_ANSWER_BYTES);
    // What the server got out is what the client read plus the sockets' buffers (a few MiB).
    expect(read).toBeLessThan(MAX_ANSWER_BYTES + 16 * 1024 * 1024);
    expect(peakKiB).toBeGreaterThan(0);
    expect(peakKiB).toBeLessThan(250 * 1024);
    expect(stderr).toMatch(
      /^Error: the answer from http:\/\/127\.0\.0\.1:\d+\/huge\/v1\/pets\?limit=30 is larger than 32 MiB; it was not read further \(response_too_large, HTTP 200\)\nNo answer of the petstore API is that large: check the base URL, or what answers at it\.\n$/,
    );
  });

  it("holds --timeout over the whole body when it drips a byte a second", async () => {
    const result = await run("drip", ["pets", "list"], ["--timeout", "1500", "--retries", "0"]);
    expect(result.code).toBe(6);
    // The whole body would take about a minute at a byte a second; the slack is for start-up on a busy machine.
    expect(result.ms).toBeLessThan(1500 + 6000);
    expect(result.stdout).toBe("");
    expectOneError(result.stderr, /^Error: no answer from http:\/\/127\.0\.0\.1:\d+ within 1500 ms$/);
  });
});

describe("answers that are not the API's", () => {
  const cases: { name: string; args: string[]; error: RegExp }[] = [
    { name: "invalid-json", args: ["pets", "list"], error: /^Error: the answer from \S+\/invalid-json\/v1\/pets\?limit=30 is not JSON: \[\{"id": 1, "name": "Rex", \(unexpected_response, HTTP 200\)$/ },
    { name: "object-not-list", args: ["pets", "list"], error: /^Error: the answer from \S+ is not a list of pets: an object where an array belongs \(unexpected_response, HTTP 200\)$/ },
    { name: "pet-without-id", args: ["pets", "get", "1"], error: /^Error: the answer from \S+\/pets\/1 is not a pet: it has no integer id \(unexpected_response, HTTP 200\)$/ },
    { name: "pet-without-id", args: ["pets", "list", "--all"], error: /^Error: the answer from \S+ is not a list of pets: item 0 it has no integer id \(unexpected_response, HTTP 200\)$/ },
    { name: "wrong-content-type", args: ["pets", "list"], error: /^Error: the answer from \S+ is text\/html, not JSON: <!doctype html><title>Welcome to nginx!<\/title> \(unexpected_response, HTTP 200\)$/ },
    { name: "empty-200", args: ["pets", "list"], error: /^Error: the answer from \S+ is not a list of pets: an empty answer where an array belongs \(unexpected_response, HTTP 200\)$/ },
    { name: "empty-200", args: ["pets", "get", "1"], error: /^Error: the answer from \S+\/pets\/1 is not a pet: an empty answer where an object belongs \(unexpected_response, HTTP 200\)$/ },
  ];
  it.each(cases)("$name ($args): exit 1, one line, a hint to check the base URL", async ({ name, args, error }) => {
    const result = await run(name, args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const lines = expectOneError(result.stderr, error);
    expect(lines[1]).toMatch(/^Something answers at http:\/\/127\.0\.0\.1:\d+, but not as the petstore API does\. Check the base URL/);
  });
});

describe("redirects are never followed", () => {
  it("a 307 to another origin: exit 1, and the other origin never sees a request", async () => {
    const result = await run("redirect-other-host", ["pets", "list"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const lines = expectOneError(
      result.stderr,
      new RegExp(`^Error: HTTP 307 from \\S+ redirects to ${servers.other.origin.replaceAll(".", "\\.")}/v1/pets\\?limit=30; petstore follows no redirect \\(unexpected_response, HTTP 307\\)$`),
    );
    expect(lines[1]).toBe("The API never redirects, and a redirect could carry the API key to another host. Set the base URL to where the API answers.");
    expect(servers.other.requests).toEqual([]);
  });

  it("a redirect loop stops at the first redirect", async () => {
    const before = servers.hostile.requests.length;
    const result = await run("redirect-loop", ["pets", "list"]);
    expect(result.code).toBe(1);
    expectOneError(result.stderr, /^Error: HTTP 302 from \S+ redirects to \/redirect-loop\/v1\/pets\?limit=30; petstore follows no redirect \(unexpected_response, HTTP 302\)$/);
    expect(servers.hostile.requests.length - before).toBe(1);
  });
});

describe("Retry-After from a hostile server", () => {
  it("10 years: not waited for; exit 5 at once, saying when", async () => {
    const result = await run("retry-after-10-years", ["pets", "list"]);
    expect(result.code).toBe(5);
    expect(result.ms).toBeLessThan(8_000);
    const lines = expectOneError(result.stderr, /^Error: Too many requests \(rate_limited, HTTP 429\)$/);
    expect(lines[1]).toBe("Rate-limited; retry in 315360000 s.");
  });

  it.each([
    ["retry-after-negative", "-5"],
    ["retry-after-garbage", "garbage"],
  ])("%s: treated as absent, so the usual backoff (capped by --max-wait) and exit 5", async (name) => {
    const before = servers.hostile.requests.length;
    const result = await run(name, ["pets", "list"], ["--retries", "2", "--max-wait", "1"]);
    expect(result.code).toBe(5);
    expect(result.ms).toBeLessThan(8_000);
    expect(servers.hostile.requests.length - before).toBe(3);
    const lines = expectOneError(result.stderr, /^Error: Too many requests \(rate_limited, HTTP 429\)$/);
    expect(lines[1]).toBe("Still rate-limited after 2 retries; retry later.");
  });

  it("a date in the past: retried at once, then exit 5", async () => {
    const before = servers.hostile.requests.length;
    const result = await run("retry-after-past", ["pets", "list"], ["--retries", "2"]);
    expect(result.code).toBe(5);
    expect(result.ms).toBeLessThan(8_000);
    expect(servers.hostile.requests.length - before).toBe(3);
    const lines = expectOneError(result.stderr, /^Error: Too many requests \(rate_limited, HTTP 429\)$/);
    expect(lines[1]).toBe("Still rate-limited after 2 retries; retry in 1 s.");
  });

  it("a wait within --max-wait prints its line on stderr, then exit 5", async () => {
    const result = await run("retry-after-negative", ["pets", "list"], ["--retries", "1", "--max-wait", "5", "--verbose"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^Retrying in \d\.\d s after HTTP 429 \(retry 1 of 1\)$/m);
  });
});

describe("Link: rel=next from a hostile server", () => {
  it("to another origin: not followed, exit 1, the other origin never sees a request", async () => {
    const result = await run("link-other-host", ["pets", "list", "--all"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expectOneError(
      result.stderr,
      new RegExp(`^Error: refusing to follow ${servers.other.origin.replaceAll(".", "\\.")}: it is not the base URL's origin http://127\\.0\\.0\\.1:\\d+, and the API key would go with it$`),
    );
    expect(servers.other.requests).toEqual([]);
  });

  it.each([
    [["pets", "list", "--all"]],
    [["api", "/pets", "--paginate"]],
  ])("looping back to the same page stops (%j)", async (args) => {
    const result = await run("link-loop", args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expectOneError(result.stderr, /^Error: the server's next link repeats a page: http:\/\/127\.0\.0\.1:\d+\/link-loop\/v1\/pets(\?limit=100)?$/);
  });

  it("looping back while streaming --json: stops, the error as JSON on stderr", async () => {
    const result = await run("link-loop", ["pets", "list", "--all", "--json"]);
    expect(result.code).toBe(1);
    const error = JSON.parse(result.stderr) as { code: string; message: string };
    expect(error.code).toBe("cli_error");
    expect(error.message).toMatch(/^the server's next link repeats a page: http:\/\/127\.0\.0\.1:\d+\/link-loop\/v1\/pets\?limit=100$/);
  });
});

describe("an Error body printed safely", () => {
  it("a 10 MB message is cut to 1000 characters, on one line", async () => {
    const result = await run("giant-error", ["pets", "list"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Error: ${"x".repeat(1000)}… (${10 * 1024 * 1024 - 1000} more characters not shown) (validation_failed, HTTP 400)\n`);
  });

  it("a 10 MB message with --json: the Error object, its message cut alike", async () => {
    const result = await run("giant-error", ["pets", "list", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({
      code: "validation_failed",
      message: `${"x".repeat(1000)}… (${10 * 1024 * 1024 - 1000} more characters not shown)`,
      status: 400,
    });
  });

  it.each([false, true])("escape sequences and control characters are stripped (terminal: %s)", async (tty) => {
    const result = await runCli(["pets", "list", "--base-url", servers.hostile.baseUrl("escape-error"), "--api-key", KEY, "--color", "never"], { tty });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("Error: bad red fake line2end (validation_failed, HTTP 400)\n");
  });

  it("a pet name with escape sequences is shown without them in a terminal's table", async () => {
    const result = await runCli(["pets", "list", "--base-url", servers.hostile.baseUrl("escape-name"), "--api-key", KEY, "--color", "never", "--no-pager"], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("ID  NAME  CATEGORY  STATUS\n1   Rex   1         available\n");
  });

  it("with --json the control characters stay escaped inside the JSON string", async () => {
    const result = await run("escape-error", ["pets", "list", "--json"]);
    expect(result.code).toBe(1);
    for (const raw of ["\u001b", "\u009b", "\u202e"]) expect(result.stderr).not.toContain(raw);
    expect(JSON.parse(result.stderr)).toEqual({ code: "validation_failed\u001b[2J", message: ESCAPE_MESSAGE, status: 400 });
  });
});

function vmHwmKiB(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0; // already gone
  }
}
