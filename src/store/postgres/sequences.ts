import type { PoolClient } from "pg";

// The identity columns' sequences, as PostgreSQL names them (<table>_<column>_seq).
const SEQUENCES = {
  pets: "pets_id_seq",
  orders: "orders_id_seq",
  webhooks: "webhooks_id_seq",
  webhook_deliveries: "webhook_deliveries_id_seq",
} as const;

export type SequencedTable = keyof typeof SEQUENCES;

/** The id the table's sequence hands out next. */
export async function nextValue(client: PoolClient, table: SequencedTable): Promise<number> {
  const { rows } = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value, is_called FROM ${SEQUENCES[table]}`);
  const row = rows[0];
  if (!row) return 1;
  return Number(row.last_value) + (row.is_called ? 1 : 0);
}

/** Makes the table's sequence hand out `next` next: the ids of an import are never handed out again. */
export async function setNextValue(client: PoolClient, table: SequencedTable, next: number): Promise<void> {
  await client.query(`SELECT setval('${SEQUENCES[table]}', $1, false)`, [next]);
}
