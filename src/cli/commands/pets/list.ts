import { Command, Option } from "commander";
import { LIST_LIMIT_MAX, LIST_LIMIT_MIN, PET_STATUSES, type Pet, type PetStatus } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import type { ApiClient, ApiResponse } from "../../http.js";
import { idValue, integerFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { linkWithRel } from "../../internal/link-header.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import type { Progress } from "../../output/progress.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";

interface ListFlags {
  status?: PetStatus;
  category?: string;
  limit?: string;
  all?: boolean;
}

export interface ListOptions {
  settings: Settings;
  status?: PetStatus;
  categoryId?: number;
  /** Page size; the server's default (20) when absent, or 100 with --all. */
  limit?: number;
  all: boolean;
}

export function listCommand(ctx: CliContext): Command {
  const command = new Command("list")
    .description("List pets: a table on a terminal, tab-separated lines when piped, JSON with --json")
    .addOption(new Option("--status <status>", "only pets with this status").choices(PET_STATUSES))
    .option("--category <id>", "only pets of this category (combines with --status)")
    .option("--limit <n>", `pets per page, ${LIST_LIMIT_MIN} to ${LIST_LIMIT_MAX} (server default 20; 100 with --all)`)
    .option("--all", 'follow Link: rel="next" to the last page')
    .action(async (flags: ListFlags, self: Command) => {
      const limit = integerFlag("--limit", flags.limit, undefined, LIST_LIMIT_MIN, LIST_LIMIT_MAX);
      const categoryId = flags.category === undefined ? undefined : idValue("--category", flags.category);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      const options: ListOptions = { settings, status: flags.status, categoryId, limit, all: flags.all === true };
      printOutcome(await runList(options, ctx), ctx, settings);
    });
  return withExamples(
    command,
    "petstore pets list --status available",
    "petstore pets list --category 3 --status sold",
    "petstore pets list --all --json > pets.json",
    "petstore pets list --all | cut -f2        # names only",
  );
}

export async function runList(options: ListOptions, ctx: CliContext): Promise<Outcome> {
  const { printPets } = await import("../../output/pets.js");
  const { createProgress } = await import("../../output/progress.js");
  const { stderrOf, stdoutOf } = await import("../../output/stream.js");
  const progress = createProgress(stderrOf(ctx, options.settings));
  const { pets, more } = await withClient(ctx, options.settings, (api) => fetchPets(api, options, progress)).finally(() =>
    progress.done(),
  );
  printPets(pets, stdoutOf(ctx, options.settings), { json: options.settings.json });
  if (pets.length === 0) return { kind: "no-results", message: "No pets found." };
  if (more) return { kind: "partial", message: `Showing ${count(pets.length, "pet")}; more follow: add --all to fetch every page.` };
  return { kind: "done" };
}

async function fetchPets(api: ApiClient, options: ListOptions, progress: Progress): Promise<{ pets: Pet[]; more: boolean }> {
  const limit = options.limit ?? (options.all ? LIST_LIMIT_MAX : undefined);
  const pets: Pet[] = [];
  const seen = new Set<string>();
  let target: string | undefined = "/pets";
  let query: Record<string, string | number | undefined> | undefined = { status: options.status, categoryId: options.categoryId, limit };
  for (let page = 1; target !== undefined; page++) {
    const response: ApiResponse<unknown> = await api.request("GET", target, { query });
    pets.push(...expectArray<Pet>(response.body, response.url));
    const next = linkWithRel(response.headers.link, "next", response.url);
    if (!options.all) return { pets, more: next !== undefined };
    progress.update(`Fetched ${count(pets.length, "pet")} (${count(page, "page")})…`);
    if (next !== undefined && seen.has(next)) throw new Error(`the server's next link repeats a page: ${next}`);
    if (next !== undefined) seen.add(next);
    // The next link already carries the filters, limit and the cursor.
    target = next;
    query = undefined;
  }
  return { pets, more: false };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function expectArray<T>(body: unknown, url: string): T[] {
  if (!Array.isArray(body)) throw new Error(`expected a JSON array of pets from ${url}`);
  return body as T[];
}
