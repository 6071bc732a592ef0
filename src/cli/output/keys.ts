import type { CreatedKey, KeyView } from "../../contract/values.js";
import { SCOPES } from "../../contract/scopes.js";
import { colorsFor } from "./colors.js";
import { labelled } from "./notice.js";
import { renderJson } from "./json.js";
import { outputMode, type OutStream } from "./stream.js";
import { renderTable } from "./table.js";
import { renderTsv } from "./tsv.js";
import { safeLine } from "./safe-text.js";

const HEAD = ["ID", "PREFIX", "PLAN", "NAME", "PER MINUTE", "PER DAY", "CREATED", "LAST USED", "STATE"];

/**
 * Keys: a table on a TTY; otherwise tab-separated
 * `id prefix plan name perMinute perDay admin createdAt lastUsedAt revokedAt expiresAt scopes`
 * (empty when null; scopes comma-separated).
 */
export function printKeys(keys: readonly KeyView[], stream: OutStream, options: { json: boolean; timeZone?: string }): void {
  const mode = outputMode(options.json, stream);
  if (mode === "json") stream.write(renderJson(keys));
  else if (mode === "tsv") stream.write(renderTsv(keys.map(tsvRow)));
  else if (keys.length > 0) stream.write(keyTable(keys, stream, options.timeZone));
}

/**
 * The answer to `keys create`: stdout carries the secret alone on its line (or, with --json,
 * the whole object), so `$(petstore keys create ...)` captures just the key; the summary and
 * the warning go to stderr.
 */
export function printCreatedKey(key: CreatedKey, out: OutStream, err: OutStream, options: { json: boolean }): void {
  out.write(options.json ? renderJson(key) : `${key.key}\n`);
  const name = key.name === null ? "" : ` "${safeLine(key.name, Number.POSITIVE_INFINITY)}"`;
  const limits = `${key.limits.perMinute}/min, ${key.limits.perDay}/day`;
  const verb = key.previousSecretValidUntil === undefined ? "Created" : "Rotated";
  const expires = key.expiresAt ? `, expires ${key.expiresAt}` : "";
  // Said only of a key that cannot do everything: that is the one a reader must not mistake.
  const scopes = scopesText(key.scopes) === "all" ? "" : `, only ${scopesText(key.scopes)}`;
  err.write(`${verb} ${key.plan} key ${key.id}${name} (${key.prefix}…, ${limits}${expires}${scopes}).\n`);
  if (key.previousSecretValidUntil !== undefined) err.write(`The old secret works until ${key.previousSecretValidUntil}.\n`);
  err.write(labelled("Warning", "save the secret now: it is not shown again.", err));
}

function tsvRow(key: KeyView): (string | number | null)[] {
  const { perMinute, perDay } = key.limits;
  // Newer columns last: scripts written before keys could expire, or had scopes, keep their column numbers.
  const scopes = (key.scopes ?? []).map((scope) => safeLine(scope, Number.POSITIVE_INFINITY)).join(",");
  return [key.id, key.prefix, key.plan, key.name, perMinute, perDay, String(key.admin), key.createdAt, key.lastUsedAt, key.revokedAt, key.expiresAt ?? null, scopes];
}

/**
 * A key's scopes for a person: "all" when it holds every scope this client knows, else the list,
 * e.g. "pets:read,events:read". Unknown to a server older than scopes: "all", as such keys could.
 */
export function scopesText(scopes: readonly string[] | undefined): string {
  if (scopes === undefined || SCOPES.every((scope) => scopes.includes(scope))) return "all";
  return scopes.length === 0 ? "none" : safeLine(scopes.join(","), Number.POSITIVE_INFINITY);
}

function keyTable(keys: readonly KeyView[], stream: OutStream, timeZone: string | undefined): string {
  // The EXPIRES and SCOPES columns only where some key expires, or can do less than everything:
  // most installations never set either.
  const expiring = keys.some((key) => key.expiresAt);
  const scoped = keys.some((key) => scopesText(key.scopes) !== "all");
  const chalk = colorsFor(stream);
  const rows = keys.map((key) => [
    key.id,
    key.prefix,
    key.plan,
    // Free text from the server: no escape sequence reaches the terminal (safe-text.ts).
    safeLine(key.name ?? "", Number.POSITIVE_INFINITY),
    String(key.limits.perMinute),
    String(key.limits.perDay),
    localTime(key.createdAt, timeZone),
    key.lastUsedAt === null ? "never" : localTime(key.lastUsedAt, timeZone),
    ...(expiring ? [key.expiresAt ? localTime(key.expiresAt, timeZone) : "never"] : []),
    ...(scoped ? [scopesText(key.scopes)] : []),
    key.revokedAt !== null ? chalk.red("revoked") : key.admin ? chalk.cyan("admin") : chalk.green("active"),
  ]);
  const head = [...HEAD.slice(0, 8), ...(expiring ? ["EXPIRES"] : []), ...(scoped ? ["SCOPES"] : []), "STATE"];
  // The name is cut first, then the prefix (the id still names the key). Times and scopes are
  // never cut (a day cut in half says nothing, "pets:re…" misleads): on a narrow terminal the
  // creation time goes first, then the limits (the plan names them), the prefix, the last use, the
  // expiry and, last, the scopes. Id, plan and state always stay.
  const dropOrder = [6, 5, 4, 1, 7, ...(expiring ? [8] : []), ...(scoped ? [expiring ? 9 : 8] : [])];
  return renderTable(head, rows, chalk, { width: stream.columns, shrinkOrder: [3, 1], dropOrder });
}

/**
 * For a person: `2025-11-22T12:34:56.789Z` → `2025-11-22 13:34 CET`, in `timeZone` (the
 * system's when undefined); the TSV and --json keep ISO 8601 UTC for scripts.
 */
export function localTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")} ${part("timeZoneName")}`;
}
