// Sends the valid records as creates, paced by the quota (quota-pacer.ts), each with an
// Idempotency-Key made of the file's hash and the record's position: a re-run of the same file
// replays what was created and creates only what was not.
import type { Pet } from "../../../contract/values.js";
import { ApiError } from "../../errors.js";
import type { ApiClient, ResponseHeaders } from "../../http.js";
import { QuotaPacer, type PacerDeps } from "./quota-pacer.js";
import type { ValidRecord } from "./validate-records.js";

export interface SendResult {
  created: number;
  replayed: number;
  failed: { line: number; error: string }[];
}

export interface SendOptions extends PacerDeps {
  concurrency: number;
  fileHash: string;
  onSettled: (done: number) => void;
}

/** How often one record may meet a 429 (someone else spent the quota) before it counts as failed. */
const MAX_REFUSALS = 5;

/** `import-<first 32 hex of the file's SHA-256>-<position>`: the same file and record, the same key. */
export function idempotencyKeyFor(fileHash: string, index: number): string {
  return `import-${fileHash.slice(0, 32)}-${index}`;
}

export async function sendRecords(api: ApiClient, records: readonly ValidRecord[], options: SendOptions): Promise<SendResult> {
  const pacer = new QuotaPacer(options.concurrency, options);
  const result: SendResult = { created: 0, replayed: 0, failed: [] };
  const queue = records.map((record) => ({ record, refusals: 0 }));
  let done = 0;
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      await pacer.acquire();
      let headers: ResponseHeaders | undefined;
      try {
        const response = await api.request<Pet>("POST", "/pets", {
          body: item.record.pet,
          headers: { "idempotency-key": idempotencyKeyFor(options.fileHash, item.record.index) },
          onResponse: (seen) => (headers = seen),
        });
        pacer.settle(headers, "ok");
        if (response.headers["idempotent-replayed"] === "true") result.replayed++;
        else result.created++;
      } catch (error) {
        if (error instanceof ApiError && error.body.status === 429 && ++item.refusals < MAX_REFUSALS) {
          pacer.settle(headers, "refused", (error.retryAfter ?? 1) * 1000);
          queue.unshift(item);
          continue;
        }
        pacer.settle(headers, "failed");
        result.failed.push({ line: item.record.line, error: error instanceof Error ? error.message : String(error) });
      }
      options.onSettled(++done);
    }
  };
  // Workers beyond the pacer's current concurrency simply wait in acquire().
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, records.length)) }, worker));
  return result;
}
