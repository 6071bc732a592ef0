import { Command, Option } from "commander";
import { PET_SORTS, SEARCH_MAX_LENGTH, type PetSort } from "../../../contract/name-search.js";
import { characterCount, LIST_LIMIT_MAX, PET_STATUSES, type Pet, type PetStatus } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import type { ApiClient, ApiResponse } from "../../http.js";
import { UsageError } from "../../errors.js";
import { idValue, integerFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { petsOf } from "../../internal/answer-shape.js";
import { linkWithRel } from "../../internal/link-header.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { printPaged } from "../../output/pager.js";
import { createProgress, type Progress } from "../../output/progress.js";
import { renderJson } from "../../output/json.js";
import { stderrOf, type OutStream } from "../../output/stream.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { PET_FIELDS } from "../../output/record-fields.js";

interface ListFlags {
  status?: PetStatus;
  category?: string;
  search?: string;
  sort?: PetSort;
  limit?: string;
  all?: boolean;
}

/** How many pets `pets list` prints without --limit or --all (gh's default). */
export const DEFAULT_LIST_LIMIT = 30;

export interface ListOptions {
  settings: Settings;
  status?: PetStatus;
  categoryId?: number;
  /** Only pets whose name contains this, compared case-insensitively by the server (`q`). */
  search?: string;
  sort?: PetSort;
  /** How many pets are wanted, fetched in pages of up to 100; every pet when undefined (--all). */
  limit: number | undefined;
}

export function listCommand(ctx: CliContext): Command {
  const command = new Command("list")
    .alias("ls")
    .description("List pets: a table on a terminal, tab-separated lines when piped, JSON with --json")
    .addOption(new Option("--status <status>", "only pets with this status").choices(PET_STATUSES))
    .option("--category <id>", "only pets of this category (combines with --status)")
    .option("--search <text>", "only pets whose name contains this text, in any case")
    .addOption(new Option("--sort <order>", "order by id or name; -id and -name reverse").choices(PET_SORTS))
    .option("-L, --limit <n>", `how many pets to print (default ${DEFAULT_LIST_LIMIT}), fetched ${LIST_LIMIT_MAX} a page`)
    .option("--all", "every pet, however many pages that takes")
    .action(async (flags: ListFlags, self: Command) => {
      if (flags.all === true && flags.limit !== undefined) throw new UsageError("--all and --limit say different things: give one");
      const limit = flags.all === true ? undefined : integerFlag("--limit", flags.limit, DEFAULT_LIST_LIMIT, 1, Number.MAX_SAFE_INTEGER);
      const categoryId = flags.category === undefined ? undefined : idValue("--category", flags.category);
      const search = searchFlag(flags.search);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runList({ settings, status: flags.status, categoryId, search, sort: flags.sort, limit }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, [...API_GLOBALS, "pager"]);
  addJsonFields(command, PET_FIELDS);
  return withExamples(
    command,
    "petstore pets list --status available",
    "petstore pets list --limit 250",
    "petstore pets list --category 3 --status sold",
    "petstore pets list --search rex --sort name",
    "petstore pets list --all --json > pets.json",
    "petstore pets list --all | cut -f2        # names only",
  );
}

export async function runList(options: ListOptions, ctx: CliContext): Promise<Outcome> {
  // Every pet as JSON into a pipe or a file: streamed, so 100,000 pets cost one page of memory.
  if (options.limit === undefined && options.settings.json && !ctx.io.isStdoutTTY) return streamAll(options, ctx);
  const printPets = await petsPrinter(options.settings.json);
  const progress = createProgress(stderrOf(ctx, options.settings));
  const { pets, more } = await withClient(ctx, options.settings, (api) => fetchPets(api, options, progress)).finally(() =>
    progress.done(),
  );
  await printPaged(ctx, options.settings, (stdout) => printPets(pets, stdout, { json: options.settings.json }));
  if (pets.length === 0) return { kind: "no-results", message: "No pets found." };
  if (more) return { kind: "partial", message: `Showing the first ${count(pets.length, "pet")}; more exist: raise --limit, or use --all.` };
  return { kind: "done" };
}

type PrintPets = (pets: readonly Pet[], stream: OutStream, options: { json: boolean }) => void;

/** `--json` prints the array as it came: the table and TSV printer loads only for those. */
async function petsPrinter(json: boolean): Promise<PrintPets> {
  if (json) return (pets, stream) => stream.write(renderJson(pets));
  return (await import("../../output/pets.js")).printPets;
}

/**
 * Up to `limit` pets (all with undefined), following Link: rel="next" with pages of at most 100,
 * the last page asking only for what is still wanted; `more` says whether the server had more.
 */
async function fetchPets(api: ApiClient, options: ListOptions, progress: Progress): Promise<{ pets: Pet[]; more: boolean }> {
  const wanted = options.limit ?? Number.POSITIVE_INFINITY;
  const pets: Pet[] = [];
  const seen = new Set<string>();
  let target: string | undefined = "/pets";
  let query: Record<string, string | number | undefined> | undefined = { ...filtersOf(options), limit: pageSize(wanted) };
  for (let page = 1; target !== undefined; page++) {
    const response: ApiResponse<unknown> = await api.request("GET", target, { query });
    pets.push(...petsOf(response));
    const next = linkWithRel(response.headers.link, "next", response.url);
    if (pets.length >= wanted) return { pets: pets.slice(0, wanted), more: next !== undefined || pets.length > wanted };
    if (page > 1 || next !== undefined) progress.update(`Fetched ${count(pets.length, "pet")} (${count(page, "page")})…`);
    if (next !== undefined && seen.has(next)) throw new Error(`the server's next link repeats a page: ${next}`);
    if (next !== undefined) seen.add(next);
    // The next link carries the filters and the cursor; only the page size may need to shrink.
    target = next === undefined ? undefined : withLimit(next, pageSize(wanted - pets.length));
    query = undefined;
  }
  return { pets, more: false };
}

/** The query parameters the options ask for, under the names the server takes. */
function filtersOf({ status, categoryId, search, sort }: ListOptions) {
  return { status, categoryId, q: search, sort };
}

/** As the server checks `q`: any text but an empty one, up to its length in characters (code points). */
function searchFlag(value: string | undefined): string | undefined {
  if (value === "") throw new UsageError("--search must not be empty");
  if (value !== undefined && characterCount(value) > SEARCH_MAX_LENGTH) throw new UsageError(`--search must be at most ${SEARCH_MAX_LENGTH} characters`);
  return value;
}

function pageSize(remaining: number): number {
  return Math.min(LIST_LIMIT_MAX, remaining);
}

function withLimit(link: string, limit: number): string {
  const url = new URL(link);
  url.searchParams.set("limit", String(limit));
  return url.href;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}


async function streamAll(options: ListOptions, ctx: CliContext): Promise<Outcome> {
  const { petPages } = await import("../../internal/pet-pages.js");
  const { jsonArrayWriter } = await import("../../output/json-stream.js");
  const writer = jsonArrayWriter(ctx.io.stdout);
  await withClient(ctx, options.settings, async (api) => {
    for await (const page of petPages(api, filtersOf(options))) writer.write(page);
  });
  writer.end();
  return { kind: "done" };
}
