import { Option, type Command } from "commander";
import type { CliContext, TextSink } from "../context.js";
import { OutputClosedError } from "../errors.js";
import { resolveServeOptions, SERVE_DEFAULTS, type ServeFlags } from "../settings.js";
import type { ServeThrowawayFlags } from "../internal/serve-throwaway.js";

export function registerServe(program: Command, ctx: CliContext, setExitCode: (code: number) => void): void {
  program
    .command("serve")
    .description("Run the API server over a lowdb JSON file, or PostgreSQL and Redis")
    .option("--port <port>", `port to listen on; 0 picks a free one (env PETSTORE_PORT, default ${SERVE_DEFAULTS.port})`)
    .option("--host <host>", `address to bind (env PETSTORE_HOST, default ${SERVE_DEFAULTS.host})`)
    .option(
      "--db <file|url>",
      `database file, created when absent, or a postgres:// URL (env PETSTORE_DB, default ${SERVE_DEFAULTS.db})`,
    )
    .option("--redis <url>", "redis:// URL for rate limits shared by several instances (env PETSTORE_REDIS_URL)")
    .option("--config <file>", "JSON file overriding plan limits and the ban policy (env PETSTORE_SERVE_CONFIG)")
    .option("--https", "serve HTTPS with a self-signed certificate, for local use (or with --cert and --key)")
    .option("--cert <pem>", "serve HTTPS with this certificate (PEM file); needs --key")
    .option("--key <pem>", "the certificate's private key (PEM file); needs --cert")
    .option("--quiet", "do not log requests to stderr")
    .addOption(
      new Option("--log-format <format>", "text or json (env PETSTORE_LOG_FORMAT; default text on a terminal, json otherwise)").choices([
        "text",
        "json",
      ]),
    )
    .option(
      "--trust-proxy <hops|cidrs>",
      "believe X-Forwarded-For from this many proxies, or from these addresses (10.0.0.0/8,::1) (env PETSTORE_TRUST_PROXY)",
    )
    .option("--metrics-port <port>", "serve Prometheus /metrics on this port of 127.0.0.1 (env PETSTORE_METRICS_PORT)")
    .option("--metrics-host <host>", "address for --metrics-port (env PETSTORE_METRICS_HOST, default 127.0.0.1)")
    .option("--metrics-token <token>", "also serve /metrics on the main port to this bearer token (env PETSTORE_METRICS_TOKEN)")
    .option("--public-url <url>", "the URL clients reach this server by, for the links it writes: https://api.example.com (env PETSTORE_PUBLIC_URL)")
    .option(
      "--cors-origin <origins>",
      "let browser apps on these origins call the API: https://app.example.com[,...] (env PETSTORE_CORS_ORIGINS)",
    )
    .option("--webhook-retry-for <duration>", "retry a failing webhook delivery this long, then mark it failed (env PETSTORE_WEBHOOK_RETRY_FOR, default 3d)")
    .option("--webhook-max-in-flight <n>", "attempts in flight to each webhook endpoint at once (env PETSTORE_WEBHOOK_MAX_IN_FLIGHT, default 4, at most 256)")
    .option("--webhooks-allow-private", "let webhook endpoints be on loopback and private networks: local development only (env PETSTORE_WEBHOOKS_ALLOW_PRIVATE=1)")
    .option("--ephemeral", "keep everything in memory and write nothing; POST /v1/admin/reset restores the seed (for tests)")
    .option("--seed <file>", "start with these pets, orders, keys and webhooks (JSON); without --ephemeral, fills an empty db")
    .option("--write-env <path>", "once listening, write PETSTORE_BASE_URL and PETSTORE_API_KEY (admin) to this file, atomically")
    .option("--print-env", "once listening, print PETSTORE_BASE_URL and PETSTORE_API_KEY (admin) on stdout")
    .option("--chaos <spec>", 'faults on purpose, for testing clients: "latency=200ms@10%,status=503@2%,reset=1%"')
    .option("--chaos-seed <n>", "the seed of --chaos: the same seed, the same faults for the same requests (random, and said, without)")
    .addHelpText(
      "after",
      "\nExamples:\n  $ petstore serve\n  $ PETSTORE_ADMIN_KEY=... petstore serve --port 8080 --db /var/lib/petstore/db.json\n" +
        "  $ petstore serve --db postgres://petstore@db.internal/petstore --redis redis://cache.internal:6379/0\n" +
        "  $ petstore serve --https                                  # self-signed, for local use\n" +
        "  $ petstore serve --host 0.0.0.0 --cert fullchain.pem --key privkey.pem\n" +
        "  $ petstore serve --trust-proxy 1 --metrics-port 9464 --log-format json   # behind one load balancer\n" +
        "  $ petstore serve --cors-origin https://app.example.com,http://localhost:5173\n" +
        "  $ petstore serve --ephemeral --seed test/seed.json --port 0 --write-env .petstore.env   # for a test suite\n" +
        "\nSignals: SIGTERM and SIGINT stop gracefully; SIGHUP reloads the --config limits file.\n",
    )
    .action(async (flags: ServeFlags & ServeThrowawayFlags) => {
      const { checkSeedTargetsOf, resolveThrowaway } = await import("../internal/serve-throwaway.js");
      const options = { ...resolveServeOptions(flags, ctx), ...(await resolveThrowaway(flags, ctx.now)) };
      await checkSeedTargetsOf(options);
      const { runServe } = await import("../../server/serve.js");
      setExitCode(await runServe(options, { stdout: droppedWhenClosed(ctx.io.stdout), stderr: droppedWhenClosed(ctx.io.stderr) }));
    });
}

/** A server outlives the reader of its log: once that reader has gone, its lines are dropped. */
function droppedWhenClosed(sink: TextSink): TextSink {
  return {
    write(chunk) {
      try {
        return sink.write(chunk);
      } catch (error) {
        if (error instanceof OutputClosedError) return true;
        throw error;
      }
    },
  };
}
