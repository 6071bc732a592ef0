// `petstore status`: where the client points, whether the server there answers and which version
// it runs, and the key in use, its scopes and what is left of its minute and day (GET /v1/keys/current).
import type { Command } from "commander";
import type { KeyView } from "../../contract/values.js";
import { withClient, type CliContext } from "../context.js";
import { ApiError } from "../errors.js";
import type { ResponseHeaders } from "../http.js";
import { statusFromRefusal, type KeySeen, type Refusal, type Usage, type UsageWindow } from "../internal/status-from-refusal.js";
import { scopesText } from "../output/keys.js";
import { resetPhrase } from "../output/reset-time.js";
import { fitText } from "../output/fit-lines.js";
import { API_GLOBALS, takesGlobalOptions } from "../internal/global-options.js";
import { SCOPES } from "../../contract/scopes.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../settings.js";

/** The body of GET /v1/keys/current. */
export interface CurrentKey {
  key: KeyView;
  usage: Usage;
  server: { version: string };
}

export interface Status {
  baseUrl: string;
  profile: string | null;
  server: { reachable: true; version: string | null };
  /** The server's view of the key; only its prefix, plan and limits when the read was refused (429). */
  key: KeyView | KeySeen | null;
  usage: Usage | null;
  /** Only when GET /keys/current was refused for quota: key and usage are then read from that 429's headers. */
  refused?: Refusal["refused"];
}

export function registerStatus(program: Command, ctx: CliContext): void {
  takesGlobalOptions(program.command("status"), API_GLOBALS)
    .description("Show the base URL and profile in use, the server's version, and the key's plan, scopes, limits and what is left")
    .addHelpText("after", "\nExamples:\n  $ petstore status\n  $ petstore --env staging status --json\n")
    .action(async (_flags: unknown, self: Command) => {
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      const status = await runStatus(settings, ctx);
      const width = ctx.io.isStdoutTTY ? ctx.io.columns : undefined;
      ctx.io.stdout.write(settings.json ? `${JSON.stringify(status, null, 2)}\n` : renderStatus(status, ctx.now(), { timeZone: ctx.timeZone, width }));
    });
}

/**
 * One request: with a key, GET /keys/current (counted once, like any request); without one, the
 * public document, which only proves the API answers. A refusal for quota (429) is not waited
 * out: what it says is the status. Any other failure throws, to be reported as usual.
 */
export async function runStatus(settings: Settings, ctx: CliContext): Promise<Status> {
  const where = { baseUrl: settings.baseUrl, profile: settings.envName ?? null };
  const apiKey = settings.apiKey;
  if (apiKey === undefined) {
    await withClient(ctx, settings, (api) => api.request("GET", "/openapi.json"));
    return { ...where, server: { reachable: true, version: null }, key: null, usage: null };
  }
  let headers: ResponseHeaders | undefined;
  const onResponse = (seen: ResponseHeaders) => (headers = seen);
  try {
    const { body } = await withClient(ctx, settings, (api) => api.request<CurrentKey>("GET", "/keys/current", { onResponse, waitForQuota: false }));
    return { ...where, server: { reachable: true, version: body.server.version }, key: body.key, usage: body.usage };
  } catch (error) {
    const refusal = error instanceof ApiError && error.body.status === 429 && headers ? statusFromRefusal(error, headers, apiKey, ctx.now()) : undefined;
    if (refusal === undefined) throw error;
    return { ...where, server: { reachable: true, version: null }, ...refusal };
  }
}

/**
 * The status for a person: one "Label  value" line each, times in the local zone and UTC; on a
 * terminal of `width` columns a long value goes on below itself, aligned, rather than under the labels.
 */
export function renderStatus(status: Status, nowMs: number, { timeZone, width }: { timeZone?: string; width?: number } = {}): string {
  const rows: Array<[string, string]> = [
    ["Base URL", status.baseUrl],
    ["Profile", status.profile ?? "none (top level of the config file)"],
    ["Server", `reachable, version ${status.server.version ?? (status.refused ? "not told while the key's quota is spent" : "unknown (it is told only to a key)")}`],
  ];
  const { key, usage } = status;
  if (key === null || usage === null) {
    rows.push(["Key", "none set: --api-key, PETSTORE_API_KEY or `petstore config set api-key -`"]);
  } else {
    rows.push(
      ["Key", keyLine(key)],
      ["Scopes", scopesLine(key)],
      ["Limits", `${count(key.limits.perMinute)} a minute, ${count(key.limits.perDay)} a day`],
      ["Minute", windowLine(usage.minute, "this minute", nowMs, timeZone)],
      ["Day", windowLine(usage.day, "today", nowMs, timeZone)],
    );
    if (usage.bannedUntil !== null) rows.push(["Banned", `until ${resetPhrase(Date.parse(usage.bannedUntil), nowMs, timeZone).replace(/^at /, "")}`]);
  }
  const text = rows.map(([label, value]) => `${label.padEnd(LABEL_WIDTH)}${value}\n`).join("");
  return width === undefined ? text : fitText(text, width, LABEL_WIDTH);
}

const LABEL_WIDTH = 9;

function keyLine(key: KeyView | KeySeen): string {
  if (!("id" in key)) return `${key.prefix}…, ${key.plan === null ? "plan unknown (its limits are no standard plan's)" : `plan ${key.plan} (judged by its limits)`}`;
  return `${key.id} (${key.prefix}…)${key.name ? ` "${key.name}"` : ""}, plan ${key.plan}${key.admin ? ", admin" : ""}`;
}

/** What the key may do; a 429's headers do not say it. */
function scopesLine(key: KeyView | KeySeen): string {
  if (!("id" in key)) return "not told while the key's quota is spent";
  const scopes = scopesText(key.scopes);
  const all = scopes === "all" ? `all: ${SCOPES.join(", ")}` : scopes.replaceAll(",", ", ");
  return key.admin ? `${all}, and the admin operations` : all;
}

function windowLine(window: UsageWindow, period: string, nowMs: number, timeZone: string | undefined): string {
  return `${count(window.remaining)} of ${count(window.limit)} left ${period}, resets ${resetPhrase(Date.parse(window.resetAt), nowMs, timeZone)}`;
}

/** 10000 -> "10,000". */
function count(n: number): string {
  return n.toLocaleString("en-US");
}
