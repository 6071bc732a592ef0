import type { DeliveryStatus, WebhookDelivery } from "../../contract/values.js";
import { colorsFor } from "./colors.js";
import { renderJson } from "./json.js";
import { outputMode, type OutStream } from "./stream.js";
import { renderTable } from "./table.js";
import { renderTsv } from "./tsv.js";
import { safeLine } from "./safe-text.js";

const HEAD = ["ID", "EVENT", "TYPE", "STATUS", "ATTEMPTS", "LAST RESULT", "LAST ATTEMPT", "NEXT ATTEMPT"];

/**
 * Deliveries: a table on a TTY; otherwise tab-separated `id eventId type status attempts
 * lastStatusCode lastError lastAttemptAt nextAttemptAt createdAt lastDurationMs` (empty when null).
 * The receiver's answer (lastResponse) is in --json only: it may span lines.
 */
export function printDeliveries(deliveries: readonly WebhookDelivery[], stream: OutStream, options: { json: boolean }): void {
  const mode = outputMode(options.json, stream);
  if (mode === "json") stream.write(renderJson(deliveries));
  else if (mode === "tsv") stream.write(renderTsv(deliveries.map(tsvRow)));
  else if (deliveries.length > 0) stream.write(deliveryTable(deliveries, stream));
}

/** One delivery (`webhooks test`, `retry`) as `deliveries` shows it; with --json the object itself. */
export function printDelivery(delivery: WebhookDelivery, stream: OutStream, options: { json: boolean }): void {
  if (options.json) stream.write(renderJson(delivery));
  else printDeliveries([delivery], stream, options);
}

function tsvRow(d: WebhookDelivery): (string | number | null)[] {
  const error = d.lastError === null ? null : safeLine(d.lastError, Number.POSITIVE_INFINITY);
  return [d.id, d.eventId, d.type, d.status, d.attempts, d.lastStatusCode, error, d.lastAttemptAt, d.nextAttemptAt, d.createdAt, d.lastDurationMs];
}

function deliveryTable(deliveries: readonly WebhookDelivery[], stream: OutStream): string {
  const chalk = colorsFor(stream);
  const paint: Record<DeliveryStatus, (text: string) => string> = { pending: chalk.yellow, succeeded: chalk.green, failed: chalk.red };
  const rows = deliveries.map((d) => [
    String(d.id),
    d.eventId === null ? "-" : String(d.eventId),
    d.type,
    paint[d.status](d.status),
    String(d.attempts),
    lastResult(d),
    d.lastAttemptAt === null ? "never" : shortTime(d.lastAttemptAt),
    d.nextAttemptAt === null ? "-" : shortTime(d.nextAttemptAt),
  ]);
  // The last result (free text) is cut first; on a narrow terminal the times go, then the event id.
  return renderTable(HEAD, rows, chalk, { width: stream.columns, shrinkOrder: [5], dropOrder: [6, 7, 1] });
}

/** `200 in 12 ms`, or the error (a status, a refused connection, a timeout). */
function lastResult(d: WebhookDelivery): string {
  if (d.lastError !== null) return safeLine(d.lastError, Number.POSITIVE_INFINITY);
  if (d.lastStatusCode === null) return "";
  return d.lastDurationMs === null ? String(d.lastStatusCode) : `${d.lastStatusCode} in ${Math.round(d.lastDurationMs)} ms`;
}

function shortTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`;
}
