// Content negotiation (RFC 9110 12.5.1): an Accept that rules out what an operation answers is a
// 406 with the Error body, instead of JSON the client said it cannot read.
import { ApiHttpError } from "../errors.js";

/** What an operation answers with: JSON, or the event stream. */
export type AnswerType = "application/json" | "text/event-stream";

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/**
 * Whether `accept` allows `answer`. No header (or an empty one) allows anything. The most specific
 * range that matches decides (`application/json` over `application/*` over `*` + `/*`), so
 * `application/json;q=0, *` + `/*` refuses JSON; a range's parameters other than q are ignored.
 * @example accepts("application/xml", "application/json") === false
 */
export function accepts(accept: string | null, answer: AnswerType): boolean {
  if (accept === null || accept.trim() === "") return true;
  const [type, subtype] = answer.split("/") as [string, string];
  let best: { specificity: number; q: number } | undefined;
  for (const range of parseAccept(accept)) {
    const specificity = matchSpecificity(range, type, subtype);
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity || (specificity === best.specificity && range.q > best.q)) best = { specificity, q: range.q };
  }
  return best !== undefined && best.q > 0;
}

/** Throws 406 not_acceptable unless the request's Accept allows the answer. */
export function negotiate(accept: string | null, answer: AnswerType): void {
  if (accepts(accept, answer)) return;
  throw new ApiHttpError(
    "not_acceptable",
    `this operation answers ${answer} only (errors as application/json), and the Accept header rules it out; send Accept: ${answer} or leave Accept out`,
  );
}

/** 2 for type/subtype, 1 for type/*, 0 for the full wildcard, -1 when the range does not match. */
function matchSpecificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === "*") return range.subtype === "*" ? 0 : -1;
  if (range.type !== type) return -1;
  if (range.subtype === "*") return 1;
  return range.subtype === subtype ? 2 : -1;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(",")) {
    const [mediaRange = "", ...parameters] = part.split(";");
    const [type, subtype] = mediaRange.trim().toLowerCase().split("/");
    if (!type || !subtype) continue;
    ranges.push({ type, subtype, q: qualityOf(parameters) });
  }
  return ranges;
}

/** The q parameter (0 to 1, default 1); a malformed one counts as 1, as browsers and proxies read it. */
function qualityOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const [name, value] = parameter.split("=").map((piece) => piece.trim());
    if (name?.toLowerCase() !== "q" || value === undefined) continue;
    const q = Number(value);
    return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 1;
  }
  return 1;
}
