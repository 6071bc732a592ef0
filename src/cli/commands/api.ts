// node:fs/promises through fs.promises, read when first used: loading it at start-up costs
// node:stream and node:readline (the CLI bundle evaluates every import when it starts).
import { promises as fs } from "node:fs";
import { Command } from "commander";
import { withClient, type CliContext } from "../context.js";
import { ApiError, UsageError } from "../errors.js";
import type { ApiClient, ApiResponse, ResponseHeaders } from "../http.js";
import { withExamples } from "../internal/help.js";
import { parseInput, planApiRequest, type ApiFlags, type ApiRequestPlan } from "../internal/api-request.js";
import { linkWithRel } from "../internal/link-header.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../internal/global-options.js";
import { addJsonFields } from "../output/json-shaping.js";

interface CommandFlags extends ApiFlags {
  include?: boolean;
  paginate?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function apiCommand(ctx: CliContext): Command {
  const command = new Command("api")
    .description("Send any request to the API (as `gh api`): the same base URL, key, retries and exit codes as every command")
    .argument("<path>", "a path under the base URL (/pets, pets/3), or a URL on its origin")
    .option("-X, --method <method>", "GET, POST, PATCH or DELETE (default GET, POST with fields or --input)")
    .option("-f, --raw-field <key=value>", "a string parameter (repeatable): query for GET, JSON body otherwise", collect, [])
    .option("-F, --field <key=value>", "a typed parameter: true, false, null and numbers as JSON (repeatable)", collect, [])
    .option("--input <file>", 'the request body from a file of JSON, "-" for stdin')
    .option("-H, --header <line>", "an extra request header 'Name: value' (repeatable)", collect, [])
    .option("-i, --include", "print the status line and the response headers before the body")
    .option("--paginate", "follow Link: rel=\"next\" and print every page as one JSON array")
    .action(async (path: string, flags: CommandFlags, self: Command) => {
      const text = flags.input === undefined ? undefined : flags.input === "-" ? await ctx.io.readStdin() : await readInput(flags.input);
      const plan = planApiRequest(path, flags, parseInput(text, flags.input));
      if (flags.paginate === true && plan.method !== "GET") throw new UsageError("--paginate follows pages of a GET");
      const shaped = self.optsWithGlobals<{ jq?: string; jsonFields?: string }>();
      // The head is not JSON: jq and field picking would choke on it.
      if (flags.include === true && (shaped.jq ?? shaped.jsonFields) !== undefined) throw new UsageError("-i prints headers, which are not JSON: drop -i, or --jq and --json fields");
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runApi({ settings, plan, include: flags.include === true, paginate: flags.paginate === true }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, "any");
  return withExamples(
    command,
    "petstore api /pets -f status=available",
    "petstore api /pets -F categoryId=2 -f name=Rex",
    "petstore api /pets/3 -X PATCH -F categoryId=4 -H 'Content-Type: application/merge-patch+json'",
    "petstore api /pets --paginate --jq '.[].name'",
    "petstore api /keys/current -i",
  );
}

export interface ApiOptions {
  settings: Settings;
  plan: ApiRequestPlan;
  include: boolean;
  paginate: boolean;
}

export async function runApi(options: ApiOptions, ctx: CliContext): Promise<void> {
  const { renderJson } = await import("../output/json.js");
  const out = ctx.io.stdout;
  const body = await withClient(ctx, options.settings, (api) => send(api, options, (status, headers) => out.write(head(status, headers))));
  if (body !== undefined) out.write(renderJson(body));
}

/** The body, or every page's items in one array with --paginate; `onHead` sees each answer's head for -i. */
async function send(api: ApiClient, options: ApiOptions, onHead: (status: number, headers: ResponseHeaders) => void): Promise<unknown> {
  const { plan } = options;
  let seen: ResponseHeaders = {};
  const request = { query: plan.query, body: plan.body, headers: plan.headers, onResponse: (headers: ResponseHeaders) => (seen = headers) };
  const pages: unknown[] = [];
  const visited = new Set<string>();
  for (let target: string | undefined = plan.target; target !== undefined; ) {
    try {
      const response: ApiResponse<unknown> = await api.request<unknown>(plan.method, target, request);
      if (options.include) onHead(response.status, response.headers);
      if (!options.paginate) return response.body;
      pages.push(...(Array.isArray(response.body) ? response.body : [response.body]));
      target = linkWithRel(response.headers.link, "next", response.url);
      // A next link back to a page already read would loop for ever.
      if (target !== undefined && (visited.has(target) || target === response.url)) throw new Error(`the server's next link repeats a page: ${target}`);
      if (target !== undefined) visited.add(target);
      request.query = undefined;
    } catch (error) {
      if (options.include && error instanceof ApiError) onHead(error.body.status, seen);
      throw error;
    }
  }
  return pages;
}

function head(status: number, headers: ResponseHeaders): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value ?? ""}\n`);
  return `HTTP/1.1 ${status}\n${lines.join("")}\n`;
}

async function readInput(path: string): Promise<string> {
  try {
    return await fs.readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`--input ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
