// `serve`'s settings for a throwaway server in someone's tests: --ephemeral, --seed, --write-env,
// --print-env. The seed is read and checked here, so a bad one is a usage error (exit 2) and
// nothing opens or listens.
import type { ServeOptions } from "../../server/serve.js";
import { ChaosSpecError, parseChaosSpec } from "../../contract/chaos.js";
import { UsageError } from "../errors.js";

export interface ServeThrowawayFlags {
  ephemeral?: boolean;
  seed?: string;
  writeEnv?: string;
  printEnv?: boolean;
  db?: string;
  redis?: string;
  chaos?: string;
  chaosSeed?: string;
}

type ThrowawayOptions = Pick<ServeOptions, "ephemeral" | "seed" | "writeEnv" | "printEnv" | "chaos">;

/** The throwaway settings; `now` dates the seed's keys and orders that give no time. */
export async function resolveThrowaway(flags: ServeThrowawayFlags, now: () => number): Promise<ThrowawayOptions> {
  const options: ThrowawayOptions = {};
  if (flags.ephemeral) {
    // Nothing of a db is used in memory: a --db typed beside it is a mistake, not something to ignore.
    if (flags.db !== undefined) throw new UsageError("--ephemeral keeps everything in memory: it takes no --db");
    if (flags.redis !== undefined) throw new UsageError("--ephemeral counts rate limits in memory: it takes no --redis");
    options.ephemeral = true;
  }
  if (flags.writeEnv !== undefined) {
    if (flags.writeEnv.trim() === "") throw new UsageError("--write-env must not be empty");
    options.writeEnv = flags.writeEnv;
  }
  if (flags.printEnv) options.printEnv = true;
  if (flags.chaos !== undefined) options.chaos = chaosOf(flags.chaos, flags.chaosSeed);
  else if (flags.chaosSeed !== undefined) throw new UsageError("--chaos-seed goes with --chaos");
  if (flags.seed !== undefined) options.seed = await readSeed(flags.seed, now);
  return options;
}

function chaosOf(spec: string, seed: string | undefined): ServeOptions["chaos"] {
  let faults;
  try {
    faults = parseChaosSpec(spec);
  } catch (error) {
    if (error instanceof ChaosSpecError) throw new UsageError(`--chaos ${error.message}`);
    throw error;
  }
  if (seed === undefined) return { faults };
  if (!/^\d{1,10}$/.test(seed) || Number(seed) > 2 ** 31 - 1) throw new UsageError(`--chaos-seed must be an integer from 0 to ${2 ** 31 - 1}, got "${seed}"`);
  return { faults, seed: Number(seed) };
}

async function readSeed(file: string, now: () => number): Promise<ServeOptions["seed"]> {
  const { readSeedFile } = await import("../../server/seed/read-seed.js");
  const { SeedError } = await import("../../server/seed/seed-data.js");
  try {
    return await readSeedFile(file, now);
  } catch (error) {
    if (error instanceof SeedError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The seed's webhook URLs through the SSRF check, once `--webhooks-allow-private` is known: a host
 * that may not be called is a bad record too (exit 2, nothing listens).
 */
export async function checkSeedTargetsOf(options: Pick<ServeOptions, "seed" | "ephemeral" | "webhooks">): Promise<void> {
  if (!options.seed?.webhookUrls) return;
  const { checkSeedTargets } = await import("../../server/seed/seed-targets.js");
  const { privateTargetsAllowed } = await import("../../server/webhooks/private-targets.js");
  const { SeedError } = await import("../../server/seed/seed-data.js");
  try {
    await checkSeedTargets(options.seed, privateTargetsAllowed(options));
  } catch (error) {
    if (error instanceof SeedError) throw new UsageError(`--seed ${error.message}`);
    throw error;
  }
}
