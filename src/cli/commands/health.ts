// `petstore health`: is the server ready for traffic (GET /readyz)? Exit 0 when it says so, else
// the usual exit code and the reason on stderr: a container's HEALTHCHECK or a deploy script's wait
// loop, without curl. One attempt (the caller decides when to ask again), and never the API key:
// the readiness URL needs none and may be anyone's.
import { Command } from "commander";
import { READY_PATH } from "../../contract/constants.js";
import { withClient, type CliContext } from "../context.js";
import { AnswerError, NetworkError, UsageError } from "../errors.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../internal/global-options.js";

export function healthCommand(ctx: CliContext): Command {
  // The base URL, --timeout, --retries and --json, as the commands that call the API.
  const command = takesGlobalOptions(new Command("health"), API_GLOBALS);
  return command
    .description("Check that a server is ready for traffic (GET /readyz): exit 0 if so, else the reason and a non-zero exit")
    .option("--url <url>", `the readiness URL (default ${READY_PATH} on the base URL's host)`)
    .addHelpText(
      "after",
      "\nExamples:\n  $ petstore health --url http://127.0.0.1:3000/readyz\n  $ until petstore health; do sleep 1; done\n" +
        "\nExit codes: 0 ready; 1 not ready (503: what is down is said); 6 no answer; 2 a bad --url.\n",
    )
    .action(async (flags: { url?: string }, self: Command) => {
      const global = globalFlagsOf(self);
      const settings = await resolveSettings(global, ctx);
      const url = readinessUrl(flags.url, settings.baseUrl);
      // --retries only when given: by default a probe reports what it sees now.
      await runHealth({ ...settings, retries: global.retries === undefined ? 0 : settings.retries }, url, ctx);
    });
}

/** --url checked, or /readyz on the base URL's origin. */
export function readinessUrl(flag: string | undefined, baseUrl: string): string {
  if (flag === undefined) return new URL(READY_PATH, baseUrl).href;
  let url: URL;
  try {
    url = new URL(flag);
  } catch {
    throw new UsageError(`--url must be an absolute http:// or https:// URL, not ${JSON.stringify(flag)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--url must be an http:// or https:// URL, not ${url.protocol}`);
  return url.href;
}

/** One GET of `url` without a key; prints `ready` (or the answer, with --json), throws otherwise. */
export async function runHealth(settings: Settings, url: string, ctx: CliContext): Promise<void> {
  const probe = { ...settings, baseUrl: url, apiKey: undefined };
  const answer = await withClient(ctx, probe, (api) => api.request<{ status?: unknown }>("GET", url)).catch((error: unknown) => {
    if (error instanceof NetworkError) {
      throw new NetworkError(error.message, `Is petstore serving at ${new URL(url).origin}? Check --url: the server's address and port.`, error.code);
    }
    throw error;
  });
  if (answer.body?.status !== "ready") throw new AnswerError(`${url} answered ${answer.status} but not {"status":"ready"}: is it petstore's /readyz?`);
  ctx.io.stdout.write(settings.json ? `${JSON.stringify(answer.body)}\n` : "ready\n");
}
