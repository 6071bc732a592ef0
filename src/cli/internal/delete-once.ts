// A DELETE as the careful verbs send it: the client retries a DELETE whose answer was lost, and a
// 404 to that retry most likely means the first attempt did the work.
import { ApiError } from "../errors.js";
import type { ApiClient } from "../http.js";

/** "deleted", or "gone-on-retry" when only a retry found it missing; any other failure is thrown. */
export async function deleteOnce(api: ApiClient, path: string, headers?: Record<string, string>): Promise<"deleted" | "gone-on-retry"> {
  try {
    await api.request("DELETE", path, { headers });
    return "deleted";
  } catch (error) {
    if (error instanceof ApiError && error.repeated && error.body.status === 404 && error.body.code === "not_found") return "gone-on-retry";
    throw error;
  }
}
