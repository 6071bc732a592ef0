import { StorageUnavailableError } from "../../store/errors.js";
import { storageUnavailable } from "../errors.js";

/** Runs a durable write; a storage failure becomes 503 storage_unavailable, never a 201. */
export async function persistOrUnavailable<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof StorageUnavailableError) throw storageUnavailable();
    throw error;
  }
}
