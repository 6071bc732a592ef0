import type { Command } from "commander";
// Type-only: the server module itself is imported lazily, by the action.
import type { ServeOptions } from "../../server/serve.js";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";

interface ServeFlags {
  port?: string;
  host?: string;
  db?: string;
  config?: string;
  quiet?: boolean;
}

const DEFAULTS = { port: "3000", host: "127.0.0.1", db: "./petstore.json" };

export function registerServe(program: Command, ctx: CliContext, setExitCode: (code: number) => void): void {
  program
    .command("serve")
    .description("Run the API server over a lowdb JSON file")
    .option("--port <port>", `port to listen on; 0 picks a free one (env PETSTORE_PORT, default ${DEFAULTS.port})`)
    .option("--host <host>", `address to bind (env PETSTORE_HOST, default ${DEFAULTS.host})`)
    .option("--db <file>", `database file, created when absent (env PETSTORE_DB, default ${DEFAULTS.db})`)
    .option("--config <file>", "JSON file overriding plan limits and the ban policy (env PETSTORE_SERVE_CONFIG)")
    .option("--quiet", "do not log requests to stderr")
    .addHelpText(
      "after",
      "\nExamples:\n  $ petstore serve\n  $ PETSTORE_ADMIN_KEY=... petstore serve --port 8080 --db /var/lib/petstore/db.json\n",
    )
    .action(async (flags: ServeFlags) => {
      const options = resolveServeOptions(flags, ctx.env);
      const { runServe } = await import("../../server/serve.js");
      setExitCode(await runServe(options, { stdout: ctx.io.stdout, stderr: ctx.io.stderr }));
    });
}

/** Flags win over the environment, which wins over the defaults. */
export function resolveServeOptions(flags: ServeFlags, env: CliContext["env"]): ServeOptions {
  const port = flags.port ?? env.PETSTORE_PORT ?? DEFAULTS.port;
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${port}"`);
  }
  const host = flags.host ?? env.PETSTORE_HOST ?? DEFAULTS.host;
  if (host.trim() === "") throw new UsageError("--host must not be empty");
  const db = flags.db ?? env.PETSTORE_DB ?? DEFAULTS.db;
  if (db.trim() === "") throw new UsageError("--db must not be empty");
  const adminKey = env.PETSTORE_ADMIN_KEY || undefined;
  if (adminKey !== undefined && adminKey.length < 24) {
    throw new UsageError("PETSTORE_ADMIN_KEY must be at least 24 characters long");
  }
  return {
    port: Number(port),
    host,
    db,
    configFile: flags.config ?? (env.PETSTORE_SERVE_CONFIG || undefined),
    quiet: flags.quiet === true,
    adminKey,
  };
}
