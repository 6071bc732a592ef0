import type { Pool, PoolClient } from "pg";

/**
 * Runs `work` in one transaction on one connection of `pool`: committed when it resolves, rolled
 * back when it throws (the work's error is the one thrown). `begin` may set the isolation level.
 */
export async function runTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, begin = "BEGIN"): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
