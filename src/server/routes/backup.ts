import type { StoreData } from "../../store/indexed/store-state.js";
import { notFound } from "../errors.js";

/**
 * POST /v1/admin/backup: the whole store in the db file's form, taken by the server itself
 * between two group commits (file engine) or in one REPEATABLE READ transaction (PostgreSQL).
 * Writes go on meanwhile; `serve --db <saved file>` opens the answer as is.
 */
export async function takeBackup(snapshot: (() => Promise<StoreData>) | undefined): Promise<StoreData> {
  if (!snapshot) throw notFound("this server cannot take backups");
  return snapshot();
}
