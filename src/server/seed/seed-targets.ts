// The address check of a seed's webhook URLs: the SSRF guard of POST /v1/webhooks, which depends on
// whether this server lets private targets through, so it runs once the settings are known.
import { checkOutgoingUrl, type ResolveAll } from "../../support/ssrf/index.js";
import { SeedError, type Seed } from "./seed-data.js";

/** Throws a SeedError naming the first endpoint (`webhooks[1].url: ...`) whose host may not be called. */
export async function checkSeedTargets(seed: Seed | undefined, allowPrivate: boolean, resolveAll?: ResolveAll): Promise<void> {
  for (const [index, url] of (seed?.webhookUrls ?? []).entries()) {
    const check = await checkOutgoingUrl(url, { allowPrivate, resolveAll });
    if (check.ok) continue;
    const hint = allowPrivate || check.temporary ? "" : " (--ephemeral or --webhooks-allow-private lets loopback and private ones through)";
    throw new SeedError(`webhooks[${index}].url: ${check.reason}${hint}`);
  }
}
