// What every engine-failure test checks of a load's outcomes: only the expected statuses, the
// 503s exactly as documented, nobody left waiting past the deadline.
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import { loadCreate, type LoadTarget, type Outcome } from "./steady-load.js";

/** How long a load request may take: PostgreSQL's connect or statement timeout (5 s) and some slack. */
export const DEADLINE_MS = 7_000;

export { sleep };

const STORAGE_UNAVAILABLE = "the database or the rate-limit store cannot be written or reached right now; nothing was stored or changed";

/** Each outcome is one of `ok` or a 503 storage_unavailable with Retry-After: 5; answered within the deadline. */
export function expectOkOr503(outcomes: Outcome[], ok: number): void {
  for (const outcome of outcomes) {
    expect(outcome.ms, `request ${outcome.n}`).toBeLessThan(DEADLINE_MS);
    if (outcome.status === ok) continue;
    expect({ n: outcome.n, status: outcome.status, body: outcome.body }).toEqual({
      n: outcome.n,
      status: 503,
      body: { code: "storage_unavailable", message: STORAGE_UNAVAILABLE, status: 503 },
    });
    expect(outcome.headers.get("retry-after")).toBe("5");
  }
}

/**
 * Sends again every create of the load that was not answered 201 (the client's retry with the
 * same Idempotency-Key); each must now be 201. Returns every acknowledged pet by request number.
 */
export async function retryRefused(target: LoadTarget, outcomes: Outcome[]): Promise<Map<number, { id: number; name: string }>> {
  const answers: Array<{ n: number; answer: Omit<Outcome, "n" | "startedAt"> }> = [];
  // Eight at a time, as a client's retries would go: not a burst that a busy machine cannot answer in time.
  for (let i = 0; i < outcomes.length; i += 8) {
    const slice = outcomes.slice(i, i + 8);
    answers.push(
      ...(await Promise.all(
        slice.map(async (outcome) => ({ n: outcome.n, answer: outcome.status === 201 ? outcome : await loadCreate(target, outcome.n, DEADLINE_MS) })),
      )),
    );
  }
  const pets = new Map<number, { id: number; name: string }>();
  for (const { n, answer } of answers) {
    expect({ n, status: answer.status }).toEqual({ n, status: 201 });
    const pet = answer.body as { id: number; name: string };
    expect(pet.name).toBe(`load-${n}`);
    pets.set(n, { id: pet.id, name: pet.name });
  }
  return pets;
}

/** The pets as a sorted list of "id name", for comparing what was acknowledged with what is stored. */
export function petLines(pets: Iterable<{ id: number | string; name: string }>): string[] {
  return [...pets].map((pet) => `${pet.id} ${pet.name}`).sort();
}
