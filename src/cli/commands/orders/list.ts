import { Command, Option } from "commander";
import { LIST_LIMIT_MAX, ORDER_STATUSES, type Order, type OrderStatus } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import type { ApiClient, ApiResponse, ResponseHeaders } from "../../http.js";
import { idValue, integerFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { linkWithRel } from "../../internal/link-header.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { DEFAULT_LIST_LIMIT } from "../pets/list.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { ORDER_FIELDS } from "../../output/record-fields.js";

interface ListFlags {
  status?: OrderStatus;
  pet?: string;
  limit?: string;
  all?: boolean;
}

export interface ListOrdersOptions {
  settings: Settings;
  status?: OrderStatus;
  petId?: number;
  /** How many orders are wanted; every one when undefined (--all). */
  limit: number | undefined;
}

export function listCommand(ctx: CliContext): Command {
  const command = new Command("list")
    .alias("ls")
    .description("List orders (beta): a table on a terminal, tab-separated lines when piped, JSON with --json")
    .addOption(new Option("--status <status>", "only orders with this status").choices(ORDER_STATUSES))
    .option("--pet <id>", "only orders for this pet (combines with --status)")
    .option("-L, --limit <n>", `how many orders to print (default ${DEFAULT_LIST_LIMIT}), fetched ${LIST_LIMIT_MAX} a page`)
    .option("--all", "every order, however many pages that takes")
    .action(async (flags: ListFlags, self: Command) => {
      if (flags.all === true && flags.limit !== undefined) throw new UsageError("--all and --limit say different things: give one");
      const limit = flags.all === true ? undefined : integerFlag("--limit", flags.limit, DEFAULT_LIST_LIMIT, 1, Number.MAX_SAFE_INTEGER);
      const petId = flags.pet === undefined ? undefined : idValue("--pet", flags.pet);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runList({ settings, status: flags.status, petId, limit }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, [...API_GLOBALS, "pager"]);
  addJsonFields(command, ORDER_FIELDS);
  return withExamples(
    command,
    "petstore orders list --status placed",
    "petstore orders list --pet 42",
    "petstore orders list --all --json > orders.json",
  );
}

export async function runList(options: ListOrdersOptions, ctx: CliContext): Promise<Outcome> {
  const { printOrders } = await import("../../output/orders.js");
  const { printPaged } = await import("../../output/pager.js");
  const { betaNotice } = await import("../../output/beta-notice.js");
  const { orders, more, headers } = await withClient(ctx, options.settings, (api) => fetchOrders(api, options));
  await printPaged(ctx, options.settings, (stdout) => printOrders(orders, stdout, { json: options.settings.json }));
  await betaNotice(ctx, options.settings, headers);
  if (orders.length === 0) return { kind: "no-results", message: "No orders found." };
  if (more) return { kind: "partial", message: `Showing the first ${orders.length} order${orders.length === 1 ? "" : "s"}; more exist: raise --limit, or use --all.` };
  return { kind: "done" };
}

/** Up to `limit` orders, following Link: rel="next" in pages of at most 100, as `pets list` does. */
async function fetchOrders(api: ApiClient, options: ListOrdersOptions): Promise<{ orders: Order[]; more: boolean; headers: ResponseHeaders }> {
  const wanted = options.limit ?? Number.POSITIVE_INFINITY;
  const orders: Order[] = [];
  let target: string | undefined = "/store/orders";
  let query: Record<string, string | number | undefined> | undefined = { status: options.status, petId: options.petId, limit: Math.min(LIST_LIMIT_MAX, wanted) };
  let headers: ResponseHeaders = {};
  while (target !== undefined) {
    const response: ApiResponse<unknown> = await api.request("GET", target, { query });
    if (!Array.isArray(response.body)) throw new Error(`expected a JSON array of orders from ${response.url}`);
    orders.push(...(response.body as Order[]));
    headers = response.headers;
    const next = linkWithRel(response.headers.link, "next", response.url);
    if (orders.length >= wanted) return { orders: orders.slice(0, wanted), more: next !== undefined || orders.length > wanted, headers };
    if (next === target) throw new Error(`the server's next link repeats a page: ${next}`);
    target = next === undefined ? undefined : withLimit(next, Math.min(LIST_LIMIT_MAX, wanted - orders.length));
    query = undefined;
  }
  return { orders, more: false, headers };
}

function withLimit(link: string, limit: number): string {
  const url = new URL(link);
  url.searchParams.set("limit", String(limit));
  return url.href;
}
