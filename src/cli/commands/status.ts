// `petstore status`: where the client points, whether the server there answers and which version
// it runs, and the key in use with what is left of its minute and day (GET /v1/keys/current).
import type { Command } from "commander";
import type { KeyView } from "../../contract/values.js";
import { withClient, type CliContext } from "../context.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../settings.js";

interface UsageWindow {
  limit: number;
  remaining: number;
  resetAt: string;
}

/** The body of GET /v1/keys/current. */
export interface CurrentKey {
  key: KeyView;
  usage: { minute: UsageWindow; day: UsageWindow; bannedUntil: string | null };
  server: { version: string };
}

export interface Status {
  baseUrl: string;
  profile: string | null;
  server: { reachable: true; version: string | null };
  key: KeyView | null;
  usage: CurrentKey["usage"] | null;
}

export function registerStatus(program: Command, ctx: CliContext): void {
  program
    .command("status")
    .description("Show the base URL and profile in use, the server's version, and the key's plan, limits and what is left")
    .addHelpText("after", "\nExamples:\n  $ petstore status\n  $ petstore --env staging status --json\n")
    .action(async (_flags: unknown, self: Command) => {
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      const status = await runStatus(settings, ctx);
      ctx.io.stdout.write(settings.json ? `${JSON.stringify(status, null, 2)}\n` : renderStatus(status, ctx.now()));
    });
}

/**
 * One request: with a key, GET /keys/current (counted once, like any request); without one, the
 * public document, which only proves the API answers. A failure throws, to be reported as usual.
 */
export async function runStatus(settings: Settings, ctx: CliContext): Promise<Status> {
  const where = { baseUrl: settings.baseUrl, profile: settings.envName ?? null };
  if (settings.apiKey === undefined) {
    await withClient(ctx, settings, (api) => api.request("GET", "/openapi.json"));
    return { ...where, server: { reachable: true, version: null }, key: null, usage: null };
  }
  const { body } = await withClient(ctx, settings, (api) => api.request<CurrentKey>("GET", "/keys/current"));
  return { ...where, server: { reachable: true, version: body.server.version }, key: body.key, usage: body.usage };
}

/** The status for a person: one "Label  value" line each, times in the local zone. */
export function renderStatus(status: Status, nowMs: number): string {
  const rows: Array<[string, string]> = [
    ["Base URL", status.baseUrl],
    ["Profile", status.profile ?? "none (top level of the config file)"],
    ["Server", `reachable, version ${status.server.version ?? "unknown (it is told only to a key)"}`],
  ];
  const { key, usage } = status;
  if (key === null || usage === null) {
    rows.push(["Key", "none set: --api-key, PETSTORE_API_KEY or `petstore config set api-key -`"]);
  } else {
    rows.push(
      ["Key", `${key.id} (${key.prefix}…)${key.name ? ` "${key.name}"` : ""}, plan ${key.plan}${key.admin ? ", admin" : ""}`],
      ["Limits", `${key.limits.perMinute} a minute, ${key.limits.perDay} a day`],
      ["Minute", windowLine(usage.minute, nowMs)],
      ["Day", windowLine(usage.day, nowMs)],
    );
    if (usage.bannedUntil !== null) rows.push(["Banned", `until ${reset(usage.bannedUntil, nowMs)}`]);
  }
  return rows.map(([label, value]) => `${label.padEnd(9)}${value}\n`).join("");
}

function windowLine(window: UsageWindow, nowMs: number): string {
  return `${window.remaining} of ${window.limit} left, resets ${reset(window.resetAt, nowMs)}`;
}

/** "at 21:17 (in 42 s)" or "at 00:00 (in 2 h 43 min)", local time. */
function reset(iso: string, nowMs: number): string {
  const at = new Date(iso);
  const clock = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  const seconds = Math.max(0, Math.ceil((at.getTime() - nowMs) / 1000));
  const within =
    seconds < 120 ? `${seconds} s` : seconds < 7200 ? `${Math.ceil(seconds / 60)} min` : `${Math.floor(seconds / 3600)} h ${Math.ceil((seconds % 3600) / 60)} min`;
  return `at ${clock} (in ${within})`;
}
