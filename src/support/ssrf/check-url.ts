// The check of an outgoing URL when it is registered (a webhook endpoint): its form, then every
// address its host resolves to. A connection later checks again (guarded-agent.ts), since a name
// may resolve elsewhere by then.
import { isIP } from "node:net";
import { firstRefused, type AddressPolicy } from "./address-policy.js";
import { describeAddress } from "./classify-address.js";
import { systemResolveAll, type ResolveAll } from "./resolve.js";

/** The longest URL accepted, as browsers and most webhook senders (Stripe, GitHub) bound it. */
export const MAX_URL_LENGTH = 2048;

export interface UrlCheckOptions extends AddressPolicy {
  /** Defaults to dns.lookup with `all: true`. */
  resolveAll?: ResolveAll;
}

export type UrlCheck =
  | { ok: true; url: URL; addresses: string[] }
  /** `temporary`: the resolver failed for now (not "no such name"): a 503 rather than a 400. */
  | { ok: false; reason: string; temporary: boolean };

/**
 * Whether `text` is an http(s) URL without credentials, at most 2,048 characters, whose host is
 * (or resolves only to) addresses the policy lets through. The reason never quotes the URL, which
 * may hold a secret; it names the host and the address.
 * @example await checkOutgoingUrl("http://10.0.0.5/hook") // { ok: false, reason: "the URL's host is 10.0.0.5, a private address; ...", temporary: false }
 */
export async function checkOutgoingUrl(text: string, options: UrlCheckOptions = {}): Promise<UrlCheck> {
  const form = formProblem(text);
  if (typeof form === "string") return refuse(form);
  const host = form.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = isIP(host) !== 0;
  // A literal address is judged as written: no resolver involved.
  const resolved = literal ? [host] : await resolveHost(host, options.resolveAll ?? systemResolveAll);
  if (!Array.isArray(resolved)) return resolved;
  const refused = firstRefused(resolved, options);
  if (refused === undefined) return { ok: true, url: form, addresses: resolved };
  const subject = literal ? "the URL's host is" : `the URL's host ${host} resolves to`;
  return refuse(`${subject} ${describeAddress(refused.address, refused.range)}; only public addresses are allowed`);
}

/** What is wrong with the URL's form, or the parsed URL. */
function formProblem(text: string): string | URL {
  if (text.length > MAX_URL_LENGTH) return `the URL is ${text.length} characters long; at most ${MAX_URL_LENGTH} are allowed`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "the URL is not an absolute URL (https://host/path)";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `the URL's scheme must be https: or http:, not ${url.protocol}`;
  if (url.username !== "" || url.password !== "") return "the URL must not carry credentials (user info before the host); send them another way";
  return url;
}

async function resolveHost(host: string, resolveAll: ResolveAll): Promise<string[] | Extract<UrlCheck, { ok: false }>> {
  try {
    const found = await resolveAll(host);
    if (found.length === 0) return refuse(`the URL's host ${host} does not resolve to any address`);
    return found.map((entry) => entry.address);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return refuse(`the URL's host ${host} does not resolve (no such name)`);
    return { ok: false, reason: `the URL's host ${host} could not be resolved now (${code ?? "resolver error"}); try again`, temporary: true };
  }
}

const refuse = (reason: string): Extract<UrlCheck, { ok: false }> => ({ ok: false, reason, temporary: false });
