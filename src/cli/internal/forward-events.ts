// `petstore events --forward-to <url>`: its flags checked before anything is sent, the secret made
// or read, and the delivery queue started; events.ts feeds it the stream and stops it.
import { randomBytes } from "node:crypto";
import { VERSION } from "../../support/package-info.js";
import type { StoreEvent } from "../../contract/events.js";
import { parseHttpUrl } from "../../support/http-url.js";
import { newWebhookSecret, webhookSecretProblem } from "../../support/standard-webhooks.js";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { forwardBanner, printDelivery, refusedHint, undeliveredSummary } from "../output/forward-lines.js";
import { safeLine } from "../output/safe-text.js";
import type { OutStream } from "../output/stream.js";
import { createForwardQueue } from "./forward-queue.js";

/** --forward-to and --secret as typed. */
export interface ForwardFlags {
  url: string;
  /** `whsec_...`, or `-` to read it from stdin; a new one when undefined. */
  secret: string | undefined;
}

/** Where the stream's events go instead of stdout. */
export interface EventConsumer {
  onEvent(event: StoreEvent, data: string): void | Promise<void>;
  /** Ends the deliveries (an attempt in flight is given up) and says what was left undelivered. */
  stop(): Promise<void>;
}

export interface ForwardIO {
  ctx: Pick<CliContext, "io" | "now" | "sleep" | "random" | "transport" | "timeZone">;
  timeoutMs: number;
  stdout: OutStream;
  stderr: OutStream;
  /** Ctrl-C. */
  signal: AbortSignal;
}

/** Checks the flags (a UsageError before any connection), then starts delivering what is pushed. */
export async function startForwarding(flags: ForwardFlags, io: ForwardIO): Promise<EventConsumer> {
  const url = receiverUrl(flags.url);
  const given = flags.secret === "-" ? (await io.ctx.io.readStdin()).trim() : flags.secret;
  const problem = given === undefined ? undefined : webhookSecretProblem(given);
  if (problem !== undefined) throw new UsageError(`--secret: ${problem}`);
  const generated = given === undefined ? newWebhookSecret(randomBytes) : undefined;
  const secret = given ?? (generated as string);
  const transport = await io.ctx.transport({ baseUrl: url, timeoutMs: io.timeoutMs });
  const stopping = new AbortController();
  io.signal.addEventListener("abort", () => stopping.abort(), { once: true });
  io.stderr.write(forwardBanner(url, generated));
  let hinted = false;
  const queue = createForwardQueue(
    { url, secrets: [secret], userAgent: `petstore/${VERSION}` },
    {
      transport,
      now: io.ctx.now,
      sleep: io.ctx.sleep,
      random: io.ctx.random,
      signal: stopping.signal,
      onDelivery: (report) => {
        printDelivery(report, io.stdout, io.ctx.timeZone);
        if (report.outcome === "failed" && !hinted) io.stderr.write(refusedHint(report));
        hinted ||= report.outcome === "failed";
      },
    },
  );
  // The deliverer fails only when its own output fails (stdout's reader gone): the next event
  // then ends the command with that error, as printing it would have.
  let failure: { error: unknown } | undefined;
  const running = queue.run().catch((error: unknown) => void (failure = { error }));
  return {
    onEvent: (event, data) => {
      if (failure !== undefined) throw failure.error;
      return queue.push(event, data);
    },
    async stop() {
      stopping.abort();
      await running;
      await transport.close();
      io.stderr.write(undeliveredSummary(queue.undelivered()));
      if (failure !== undefined) throw failure.error;
    },
  };
}

/**
 * The receiver's URL: http(s) only, `localhost:8080/hook` read as http:// (as `stripe listen`
 * does), and no user or password in it (they would not be sent). Any host, loopback included:
 * this is the developer's own machine, not the server's outbound requests.
 */
export function receiverUrl(raw: string): string {
  // A scheme is letters and a colon not followed by a digit: `localhost:8080` is a host and port.
  const url = parseHttpUrl(/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(raw) ? raw : `http://${raw}`);
  const shown = JSON.stringify(safeLine(raw, 200));
  if (url === undefined) throw new UsageError(`--forward-to: ${shown} is not an http or https URL, such as http://localhost:8080/hook`);
  if (url.username !== "" || url.password !== "") throw new UsageError(`--forward-to: the URL carries a user or password, which is not sent; give the URL without them`);
  return url.href;
}
