import type { CreatedKey, KeyView } from "../../contract/values.js";
import { colorsFor } from "./colors.js";
import { labelled } from "./notice.js";
import { renderJson } from "./json.js";
import { outputMode, type OutStream } from "./stream.js";
import { renderTable } from "./table.js";
import { renderTsv } from "./tsv.js";

const HEAD = ["ID", "PREFIX", "PLAN", "NAME", "PER MINUTE", "PER DAY", "CREATED", "LAST USED", "STATE"];

/**
 * Keys: a table on a TTY; otherwise tab-separated
 * `id prefix plan name perMinute perDay admin createdAt lastUsedAt revokedAt` (empty when null).
 */
export function printKeys(keys: readonly KeyView[], stream: OutStream, options: { json: boolean }): void {
  const mode = outputMode(options.json, stream);
  if (mode === "json") stream.write(renderJson(keys));
  else if (mode === "tsv") stream.write(renderTsv(keys.map(tsvRow)));
  else if (keys.length > 0) stream.write(keyTable(keys, stream));
}

/**
 * The answer to `keys create`: stdout carries the secret alone on its line (or, with --json,
 * the whole object), so `$(petstore keys create ...)` captures just the key; the summary and
 * the warning go to stderr.
 */
export function printCreatedKey(key: CreatedKey, out: OutStream, err: OutStream, options: { json: boolean }): void {
  out.write(options.json ? renderJson(key) : `${key.key}\n`);
  const name = key.name === null ? "" : ` "${key.name}"`;
  const limits = `${key.limits.perMinute}/min, ${key.limits.perDay}/day`;
  err.write(`Created ${key.plan} key ${key.id}${name} (${key.prefix}…, ${limits}).\n`);
  err.write(labelled("Warning", "save the secret now: it is not shown again.", err));
}

function tsvRow(key: KeyView): (string | number | null)[] {
  const { perMinute, perDay } = key.limits;
  return [key.id, key.prefix, key.plan, key.name, perMinute, perDay, String(key.admin), key.createdAt, key.lastUsedAt, key.revokedAt];
}

function keyTable(keys: readonly KeyView[], stream: OutStream): string {
  const chalk = colorsFor(stream);
  const rows = keys.map((key) => [
    key.id,
    key.prefix,
    key.plan,
    key.name ?? "",
    String(key.limits.perMinute),
    String(key.limits.perDay),
    shortTime(key.createdAt),
    key.lastUsedAt === null ? "never" : shortTime(key.lastUsedAt),
    key.revokedAt !== null ? chalk.red("revoked") : key.admin ? chalk.cyan("admin") : chalk.green("active"),
  ]);
  return renderTable(HEAD, rows, chalk);
}

/** `2025-11-22T12:34:56.789Z` → `2025-11-22 12:34`: enough for a person, the TSV keeps it all. */
function shortTime(iso: string): string {
  return iso.slice(0, 16).replace("T", " ");
}
