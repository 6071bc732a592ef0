// Faults on purpose, decided per request from a seeded generator: with the same seed, the same
// sequence of (eligible) requests meets the same faults. Probes, /metrics and /v1/admin/* draw
// nothing, so polling /readyz never shifts the sequence.
import { randomInt } from "node:crypto";
import { API_PREFIX, HEALTH_PATH, METRICS_PATH, READY_PATH } from "../../contract/constants.js";
import { formatChaosSpec, type ChaosFault } from "../../contract/chaos.js";

/** What one request meets: added latency, then possibly an error status or a reset. */
export interface ChaosDecision {
  latencyMs: number;
  status?: 429 | 500 | 503;
  reset: boolean;
}

const EXEMPT = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]);
const ADMIN_PREFIX = `${API_PREFIX}/admin/`;

export class ChaosControl {
  #faults: readonly ChaosFault[] = [];
  #seed = 0;
  #next: () => number = () => 1;

  constructor(faults: readonly ChaosFault[] = [], seed: number = randomInt(2 ** 31)) {
    this.set(faults, seed);
  }

  /** New faults, and the generator started again from `seed`. */
  set(faults: readonly ChaosFault[], seed: number = this.#seed): void {
    this.#faults = faults;
    this.#seed = seed;
    this.#next = mulberry32(seed);
  }

  get on(): boolean {
    return this.#faults.length > 0;
  }

  get seed(): number {
    return this.#seed;
  }

  /** The spec in force, as written (`off` when none). */
  get spec(): string {
    return formatChaosSpec(this.#faults);
  }

  /** The faults for one request to `path`; undefined when it meets none. Each fault of the spec draws once, in order. */
  decide(path: string): ChaosDecision | undefined {
    if (!this.on || EXEMPT.has(path) || path.startsWith(ADMIN_PREFIX)) return undefined;
    const decision: ChaosDecision = { latencyMs: 0, reset: false };
    for (const fault of this.#faults) {
      if (this.#next() >= fault.rate) continue;
      if (fault.kind === "latency") decision.latencyMs = fault.ms;
      else if (fault.kind === "status") decision.status = fault.status;
      else decision.reset = true;
    }
    return decision.latencyMs > 0 || decision.status !== undefined || decision.reset ? decision : undefined;
  }
}

/** A small seeded generator (mulberry32): uniform in [0, 1), the same sequence for the same seed. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
