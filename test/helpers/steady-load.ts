// A steady stream of requests at a fixed rate, each with its own deadline, recorded one by one:
// what the engine-failure tests drive against a server while they take an engine away.
import { setTimeout as sleep } from "node:timers/promises";

export interface Outcome {
  /** The request's number; its Idempotency-Key and pet name derive from it. */
  n: number;
  /** ms since the load started. */
  startedAt: number;
  ms: number;
  /** 0 when no answer came before the deadline or the connection failed. */
  status: number;
  headers: Headers;
  body: unknown;
}

export interface LoadTarget {
  baseUrl: string;
  key: string;
}

export interface SteadyLoad {
  /** ms since the load started. */
  elapsed(): number;
  /** Stops sending and resolves with every outcome, in the order sent, once all have answered. */
  stop(): Promise<Outcome[]>;
}

/** The create that request n of a load sends; sending it again is the client's retry. */
export function loadCreate(target: LoadTarget, n: number, deadlineMs: number): Promise<Omit<Outcome, "n" | "startedAt">> {
  return send(target, `/pets`, deadlineMs, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": `load-${n}` },
    body: JSON.stringify({ name: `load-${n}`, categoryId: 1 }),
  });
}

/** Sends `request(n)` every 1000/perSecond ms, without waiting for earlier answers. */
export function steadyLoad(perSecond: number, request: (n: number) => Promise<Omit<Outcome, "n" | "startedAt">>): SteadyLoad {
  const start = performance.now();
  const pending: Array<Promise<Outcome>> = [];
  let running = true;
  const loop = (async () => {
    for (let n = 1; running; n++) {
      const startedAt = performance.now() - start;
      pending.push(request(n).then((outcome) => ({ n, startedAt, ...outcome })));
      await sleep(Math.max(0, (n * 1000) / perSecond - (performance.now() - start)));
    }
  })();
  return {
    elapsed: () => performance.now() - start,
    stop: async () => {
      running = false;
      await loop;
      return Promise.all(pending);
    },
  };
}

/** One request with the target's key, answered or failed within deadlineMs; never throws. */
export async function send(target: LoadTarget, path: string, deadlineMs: number, init: RequestInit = {}): Promise<Omit<Outcome, "n" | "startedAt">> {
  const started = performance.now();
  const headers = { authorization: `Bearer ${target.key}`, ...(init.headers as Record<string, string>) };
  try {
    const response = await fetch(`${target.baseUrl}${path}`, { ...init, headers, signal: AbortSignal.timeout(deadlineMs) });
    const text = await response.text();
    const body: unknown = text === "" ? undefined : JSON.parse(text);
    return { ms: performance.now() - started, status: response.status, headers: response.headers, body };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return { ms: performance.now() - started, status: 0, headers: new Headers(), body: `${String(error)}${cause ? ` (${String(cause)})` : ""}` };
  }
}
