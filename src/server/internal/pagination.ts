import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "../../contract/constants.js";
import { invalidParameter } from "../errors.js";
import { decodeCursor } from "./cursor.js";
import { parsePositiveInteger, safeEcho } from "./query.js";

/** `limit`: 1..100, 20 when absent; anything else is a 400 naming it. */
export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return LIST_LIMIT_DEFAULT;
  const limit = parsePositiveInteger(raw);
  if (limit === undefined || limit > LIST_LIMIT_MAX) {
    throw invalidParameter("limit", `must be an integer from 1 to ${LIST_LIMIT_MAX}, got "${safeEcho(raw)}"`);
  }
  return limit;
}

/** The id after which a page starts: the decoded `cursor`, or undefined for the first page. */
export function parseCursor(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const afterId = decodeCursor(raw);
  if (afterId === undefined) {
    throw invalidParameter("cursor", "is not a cursor this server issued; follow the Link header of the previous page");
  }
  return afterId;
}

/** An optional positive-integer filter such as `categoryId` or `petId`. */
export function parseIdFilter(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const id = parsePositiveInteger(raw);
  if (id === undefined) throw invalidParameter(name, `must be a positive integer, got "${safeEcho(raw)}"`);
  return id;
}
