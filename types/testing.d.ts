// The types of `petstore/testing` (package.json "exports"); src/testing/start-petstore.ts
// implements them, and test/testing/start-petstore.test.ts checks the two agree.

export interface StartPetstoreOptions {
  /**
   * Pets, orders, keys and webhook endpoints to start with and to go back to at each reset: the
   * object of a seed file, or its path. An endpoint (`{ id?, url, types?, description?, enabled?,
   * secret }`) carries its `whsec_` signing secret, so a receiver verifies the deliveries with it;
   * endpoints on 127.0.0.1 are allowed.
   */
  seed?: { pets?: unknown[]; orders?: unknown[]; keys?: unknown[]; webhooks?: unknown[] } | string;
  /** Faults on purpose, as `serve --chaos` takes them: "latency=200ms@10%,status=503@2%,reset=1%". */
  chaos?: string;
  /** The same seed gives the same faults to the same sequence of requests. */
  chaosSeed?: number;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 by default. */
  host?: string;
}

export interface TestPetstore {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string;
  /** An admin key: the seed's first admin key, else one drawn for this server. */
  adminKey: string;
  /** Back to the seed: data, next ids, webhook endpoints, rate-limit counters, bans, idempotency records, events; deliveries cleared, those under way cut off. */
  reset(): Promise<void>;
  /** New faults ("off" for none), the sequence started again from `seed` when given. */
  setChaos(spec: string, seed?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts an in-memory petstore in this process; resolves once it listens. */
export declare function startPetstore(options?: StartPetstoreOptions): Promise<TestPetstore>;

/** A seed that cannot be used; the message names the record and the field (`pets[1].categoryId: ...`). */
export declare class SeedError extends Error {}

/** A --chaos spec that cannot be read; the message names the part. */
export declare class ChaosSpecError extends Error {}
