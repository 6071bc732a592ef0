import { recordOf, type CreateOptions } from "../idempotency-store.js";
import type { GroupCommit } from "./group-commit.js";
import type { Batch, StoreState } from "./store-state.js";

/**
 * Stages one create, and with `options.idempotency` its idempotency record in the same batch, so
 * one journal line (or one rewrite) holds both or neither. The id is claimed first: a second
 * create with it while this one is staged, or once it is durable, gets IdempotencyKeyTakenError.
 */
export async function stageCreate<T>(
  state: StoreState,
  commit: GroupCommit,
  options: CreateOptions<T>,
  make: () => T,
  add: (batch: Batch, created: T) => void,
): Promise<T> {
  const write = options.idempotency;
  if (!write) {
    const created = make();
    await commit.stage((batch) => add(batch, created));
    return created;
  }
  state.idempotency.claim(write.id, Date.parse(write.createdAt));
  try {
    const created = make();
    const record = recordOf(write, created);
    await commit.stage((batch) => {
      add(batch, created);
      batch.idempotency.push(record);
    });
    return created;
  } finally {
    state.idempotency.release(write.id);
  }
}
