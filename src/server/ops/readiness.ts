// GET /readyz: may a load balancer send this instance traffic? Each part the requests need is
// asked a cheap question with a deadline; a part that does not answer in time counts as down.
import { randomUUID } from "node:crypto";
import { open, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { messageOf } from "../../support/error-text.js";

export interface ReadinessCheck {
  /** What the 503 names: "store postgres://db/petstore", "limits redis://cache:6379". */
  name: string;
  check(): Promise<unknown>;
}

export type Readiness = { ready: true } | { ready: false; failures: string[] };

export const READY_TIMEOUT_MS = 1_000;
/** How long one round of checks answers every /readyz after it: a flood of probes costs one round a second. */
export const READY_REUSE_MS = 1_000;

/**
 * `check` coalesced: at most one round in flight, whose result every call made meanwhile gets,
 * and which answers the calls of the next `reuseMs` too (anyone may call /readyz, as often as
 * they like; each round writes and fsyncs a file or asks PostgreSQL and Redis).
 */
export function coalescedReadiness(check: () => Promise<Readiness>, reuseMs = READY_REUSE_MS, now: () => number = () => performance.now()): () => Promise<Readiness> {
  let current: Promise<Readiness> | undefined;
  /** When `current` settled: Infinity while it runs, so every call meanwhile shares it. */
  let settledAt = 0;
  return () => {
    if (current !== undefined && now() - settledAt < reuseMs) return current;
    const round = check();
    current = round;
    settledAt = Infinity;
    round.then(
      () => (settledAt = now()),
      () => {
        // A round that threw (checkReadiness does not) is asked again by the next call.
        if (current === round) current = undefined;
      },
    );
    return round;
  };
}

/** Runs every check at once; ready only when each settles in time without an error. */
export async function checkReadiness(checks: readonly ReadinessCheck[], timeoutMs = READY_TIMEOUT_MS): Promise<Readiness> {
  const results = await Promise.all(checks.map((part) => withDeadline(part, timeoutMs)));
  const failures = results.filter((result): result is string => result !== undefined);
  return failures.length === 0 ? { ready: true } : { ready: false, failures };
}

async function withDeadline(part: ReadinessCheck, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((done) => {
    timer = setTimeout(() => done(`${part.name}: no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([part.check().then(() => undefined, (error: unknown) => `${part.name}: ${messageOf(error)}`), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The lowdb engine keeps everything in memory, so its reads always answer; what can fail is the
 * disk under it. "Answers" for the file engine means: a small file can be created, written,
 * fsynced and removed beside the db within the deadline (catches a read-only or vanished
 * volume, a full disk, a hung device, lost permissions).
 */
export function dbDirectoryCheck(dbFile: string): ReadinessCheck {
  const directory = dirname(dbFile);
  return {
    name: `db directory ${directory}`,
    async check() {
      const probe = join(directory, `.${randomUUID()}.readyz`);
      const handle = await open(probe, "wx", 0o600);
      try {
        await handle.write("ready\n");
        await handle.datasync();
      } finally {
        await handle.close();
        await unlink(probe).catch(() => undefined);
      }
    },
  };
}
