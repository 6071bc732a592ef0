// What `petstore events --forward-to` prints. Each delivery attempt is a record on stdout (as
// `stripe listen` prints its deliveries there): a readable line on a terminal, one JSON object per
// line piped. What the person needs to know (where to, the secret, what was left) goes to stderr.
import type { StoreEvent } from "../../contract/events.js";
import type { DeliveryReport } from "../internal/forward-queue.js";
import { colorsFor } from "./colors.js";
import { clockTime } from "./events.js";
import { safeLine } from "./safe-text.js";
import type { OutStream } from "./stream.js";

/** One attempt: `12:00:01  pet.created    #12      200  4 ms`, or its JSON record piped. */
export function printDelivery(report: DeliveryReport, stream: OutStream, timeZone?: string): void {
  if (!stream.isTTY) {
    stream.write(`${JSON.stringify(deliveryRecord(report))}\n`);
    return;
  }
  const chalk = colorsFor(stream);
  const paint = report.outcome === "delivered" ? chalk.green : report.outcome === "retrying" ? chalk.yellow : chalk.red;
  const status = paint(report.status === undefined ? "---" : String(report.status));
  const error = report.error === undefined ? "" : `  ${safeLine(report.error, 200)}`;
  const time = clockTime(new Date(report.at).toISOString(), timeZone);
  const head = `${time}  ${chalk.bold(report.event.type.padEnd(13))}  #${String(report.event.id).padEnd(6)}`;
  stream.write(`${head}  ${status}  ${report.ms} ms${error}${tailOf(report)}\n`);
}

/**
 * The piped record: `{"time","type","eventId","webhookId","attempt","status","ms","outcome"}`, with
 * `error` when there was no answer (status null) and `retryInMs` when another attempt follows.
 */
export function deliveryRecord(report: DeliveryReport): Record<string, unknown> {
  return {
    time: new Date(report.at).toISOString(),
    type: report.event.type,
    eventId: report.event.id,
    webhookId: report.webhookId,
    attempt: report.attempt,
    status: report.status ?? null,
    ms: report.ms,
    outcome: report.outcome,
    ...(report.error === undefined ? {} : { error: report.error }),
    ...(report.retryInMs === undefined ? {} : { retryInMs: report.retryInMs }),
  };
}

function tailOf(report: DeliveryReport): string {
  if (report.outcome === "retrying") return `  retry ${report.attempt} in ${((report.retryInMs ?? 0) / 1000).toFixed(1)} s`;
  if (report.outcome === "failed") return "  not retried";
  return "";
}

/** The first lines on stderr: where events go, and the secret when it was made for this run. */
export function forwardBanner(url: string, generatedSecret: string | undefined): string {
  const secret = generatedSecret === undefined ? "Signing with the secret given with --secret." : `Webhook signing secret: ${generatedSecret}`;
  return `Forwarding events to ${url} (Ctrl-C to quit)\n${secret}\n`;
}

/** Said once, at the first delivery the receiver refused for good. */
export function refusedHint(report: DeliveryReport): string {
  return (
    `The receiver answered ${String(report.status)} to event ${report.event.id}: a 3xx or 4xx other than 408 and 429 is not retried, and the next events go on. ` +
    "Check the URL, and the secret the receiver verifies with.\n"
  );
}

/** On stop: what was left undelivered and how to send it, or nothing when all was. */
export function undeliveredSummary(events: readonly StoreEvent[]): string {
  const [first, last] = [events[0], events.at(-1)];
  if (first === undefined || last === undefined) return "";
  const which = first === last ? `event ${first.id} was` : `${events.length} events (${first.id} to ${last.id}) were`;
  return `Stopped: ${which} not delivered; to send ${first === last ? "it" : "them"}, run again with --since ${first.id - 1}.\n`;
}
