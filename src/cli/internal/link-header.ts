import { AnswerError } from "../errors.js";

/**
 * The target of the link with the given relation in an RFC 8288 Link header, resolved
 * against `base`; undefined when there is none.
 * @example linkWithRel('<https://x/v1/pets?cursor=abc>; rel="next"', "next", base) // "https://x/v1/pets?cursor=abc"
 */
export function linkWithRel(header: string | undefined, rel: string, base: string): string | undefined {
  if (!header) return undefined;
  // <target> then parameters; a quoted value may hold "," or ";".
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"[^"]*"|[^;,]*))?)*)/g)) {
    const [, target = "", params = ""] = match;
    const relParam = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const rels = (relParam?.[1] ?? relParam?.[2] ?? "").toLowerCase().split(/\s+/);
    if (rels.includes(rel)) return absolute(target, base);
  }
  return undefined;
}

function absolute(target: string, base: string): string {
  try {
    return new URL(target, base).toString();
  } catch {
    throw new AnswerError(`the server's Link header points to something that is not a URL: <${target.slice(0, 200)}>`);
  }
}
