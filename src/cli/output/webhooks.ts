import type { CreatedWebhook, Webhook } from "../../contract/values.js";
import { colorsFor } from "./colors.js";
import { labelled } from "./notice.js";
import { renderJson } from "./json.js";
import { outputMode, type OutStream } from "./stream.js";
import { renderTable } from "./table.js";
import { renderTsv } from "./tsv.js";
import { safeLine } from "./safe-text.js";

const HEAD = ["ID", "URL", "TYPES", "STATE", "DESCRIPTION", "CREATED"];

/**
 * Endpoints: a table on a TTY; otherwise tab-separated
 * `id url types enabled description createdAt updatedAt` (types comma-separated, empty for all).
 */
export function printWebhooks(webhooks: readonly Webhook[], stream: OutStream, options: { json: boolean }): void {
  const mode = outputMode(options.json, stream);
  if (mode === "json") stream.write(renderJson(webhooks));
  else if (mode === "tsv") stream.write(renderTsv(webhooks.map(tsvRow)));
  else if (webhooks.length > 0) stream.write(webhookTable(webhooks, stream));
}

/** One endpoint as `webhooks list` shows it; with --json the Webhook object itself. */
export function printWebhook(webhook: Webhook, stream: OutStream, options: { json: boolean }): void {
  if (options.json) stream.write(renderJson(webhook));
  else printWebhooks([webhook], stream, options);
}

/**
 * The answer to `webhooks add` and `rotate-secret`: stdout carries the secret alone on its line
 * (or, with --json, the whole object), so `$(petstore webhooks add ...)` captures just the secret;
 * what was made and the warning go to stderr, as `keys create` does.
 */
export function printCreatedWebhook(webhook: CreatedWebhook, out: OutStream, err: OutStream, options: { json: boolean; rotation?: { graceSeconds: number } }): void {
  out.write(options.json ? renderJson(webhook) : `${webhook.secret}\n`);
  const verb = options.rotation === undefined ? "Added" : "Rotated the signing secret of";
  err.write(`${verb} webhook ${webhook.id} → ${safeLine(webhook.url, Number.POSITIVE_INFINITY)} (${typesText(webhook.types)}).\n`);
  if (options.rotation !== undefined) err.write(`${graceText(options.rotation.graceSeconds)}\n`);
  err.write(labelled("Warning", "save the signing secret now: it is not shown again.", err));
}

/** What a receiver still verifying with the old secret has left. */
function graceText(seconds: number): string {
  if (seconds === 0) return "The old secret no longer signs.";
  const [amount, unit] = seconds % 86400 === 0 ? [seconds / 86400, "d"] : seconds % 3600 === 0 ? [seconds / 3600, "h"] : seconds % 60 === 0 ? [seconds / 60, "min"] : [seconds, "s"];
  return `The old secret keeps signing beside the new one for ${amount} ${unit}.`;
}

/** "all types", or the list a person reads: "pet.created, order.created". */
export function typesText(types: readonly string[]): string {
  return types.length === 0 ? "all types" : safeLine(types.join(", "), Number.POSITIVE_INFINITY);
}

function tsvRow(webhook: Webhook): (string | number | null)[] {
  const types = webhook.types.map((type) => safeLine(type, Number.POSITIVE_INFINITY)).join(",");
  return [webhook.id, webhook.url, types, String(webhook.enabled), webhook.description, webhook.createdAt, webhook.updatedAt];
}

function webhookTable(webhooks: readonly Webhook[], stream: OutStream): string {
  const chalk = colorsFor(stream);
  const rows = webhooks.map((webhook) => [
    String(webhook.id),
    // Free text from the server: no escape sequence reaches the terminal (safe-text.ts).
    safeLine(webhook.url, Number.POSITIVE_INFINITY),
    webhook.types.length === 0 ? chalk.dim("all") : typesText(webhook.types),
    webhook.enabled ? chalk.green("enabled") : chalk.red("disabled"),
    safeLine(webhook.description ?? "", Number.POSITIVE_INFINITY),
    `${webhook.createdAt.slice(0, 10)} ${webhook.createdAt.slice(11, 19)}Z`,
  ]);
  // The description is cut first, then the types, then the URL (the id still names it); on a
  // narrow terminal the creation time goes, then the description. Id and state always stay.
  return renderTable(HEAD, rows, chalk, { width: stream.columns, shrinkOrder: [4, 2, 1], dropOrder: [5, 4] });
}
