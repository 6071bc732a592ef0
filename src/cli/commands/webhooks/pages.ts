// Up to `limit` records of a paginated webhooks list (endpoints or deliveries), following
// Link: rel="next" in pages of at most LIST_LIMIT_MAX, as `orders list` does.
import { LIST_LIMIT_MAX } from "../../../contract/values.js";
import type { ApiClient, ApiResponse } from "../../http.js";
import { linkWithRel } from "../../internal/link-header.js";

export type PageQuery = Record<string, string | number | undefined>;

/** `limit` undefined: every record (--all). `more`: records were left on the server. */
export async function fetchPages<T>(api: ApiClient, path: string, filters: PageQuery, limit: number | undefined): Promise<{ records: T[]; more: boolean }> {
  const wanted = limit ?? Number.POSITIVE_INFINITY;
  const records: T[] = [];
  let target: string | undefined = path;
  let query: PageQuery | undefined = { ...filters, limit: Math.min(LIST_LIMIT_MAX, wanted) };
  while (target !== undefined) {
    const response: ApiResponse<unknown> = await api.request("GET", target, { query });
    if (!Array.isArray(response.body)) throw new Error(`expected a JSON array from ${response.url}`);
    records.push(...(response.body as T[]));
    const next = linkWithRel(response.headers.link, "next", response.url);
    if (records.length >= wanted) return { records: records.slice(0, wanted), more: next !== undefined || records.length > wanted };
    if (next === target) throw new Error(`the server's next link repeats a page: ${next}`);
    target = next === undefined ? undefined : withLimit(next, Math.min(LIST_LIMIT_MAX, wanted - records.length));
    query = undefined;
  }
  return { records, more: false };
}

function withLimit(link: string, limit: number): string {
  const url = new URL(link);
  url.searchParams.set("limit", String(limit));
  return url.href;
}
