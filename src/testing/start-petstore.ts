// `import { startPetstore } from "petstore/testing"`: the throwaway server (serve --ephemeral) in
// the test runner's own process, on a free port, with what a test needs to drive it.
import { ChaosSpecError, parseChaosSpec } from "../contract/chaos.js";
import { startServer } from "../server/serve.js";
import { readSeedFile } from "../server/seed/read-seed.js";
import { parseSeed, type Seed } from "../server/seed/seed-data.js";
import type { StartPetstoreOptions, TestPetstore } from "../../types/testing.js";

export type { StartPetstoreOptions, TestPetstore };

/** Starts an in-memory petstore seeded with `options.seed` (an object, or a JSON file's path); resolves once it listens. */
export async function startPetstore(options: StartPetstoreOptions = {}): Promise<TestPetstore> {
  const seed = await seedOf(options.seed);
  const faults = options.chaos === undefined ? undefined : parseChaosSpec(options.chaos);
  const quiet = { write: () => true };
  const server = await startServer(
    {
      port: options.port ?? 0,
      host: options.host ?? "127.0.0.1",
      db: ":memory:",
      configFile: undefined,
      quiet: true,
      adminKey: undefined,
      ephemeral: true,
      seed,
      chaos: faults && { faults, seed: options.chaosSeed },
    },
    { stdout: quiet, stderr: quiet },
  );
  const adminKey = server.adminKey!;
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  };
  return {
    baseUrl: server.baseUrl,
    adminKey,
    reset: () => admin("POST", "/admin/reset"),
    setChaos: (spec, chaosSeed) => {
      // Refused here, before a request, with the same message `serve --chaos` gives.
      parseChaosSpec(spec);
      return admin("PUT", "/admin/chaos", chaosSeed === undefined ? { spec } : { spec, seed: chaosSeed });
    },
    close: () => server.close(),
  };
}

async function seedOf(seed: StartPetstoreOptions["seed"]): Promise<Seed | undefined> {
  if (seed === undefined) return undefined;
  return typeof seed === "string" ? readSeedFile(seed, Date.now) : parseSeed(seed, Date.now);
}

export { ChaosSpecError };
export { SeedError } from "../server/seed/seed-data.js";
