// Sends the valid records as creates, paced by the quota (quota-pacer.ts), each with an
// Idempotency-Key made of the file's hash and the record's position: a re-run of the same file
// replays what was created and creates only what was not. What is known done is noted in the
// import's journal (import-journal.ts), so a re-run does not even send it. A failure every other
// record would meet too (no answer, the key refused, not the API, the quota spent for longer than
// --max-wait) stops the import at once rather than repeating it record after record.
import type { Pet } from "../../../contract/values.js";
import { ApiError, NetworkError, UNEXPECTED_CODES } from "../../errors.js";
import type { ApiClient, ResponseHeaders } from "../../http.js";
import { quotaWindows, tightest } from "../rate-limit-windows.js";
import type { ImportJournal } from "./import-journal.js";
import { QuotaPacer, type PacerDeps, type QuotaStop } from "./quota-pacer.js";
import type { ValidRecord } from "./validate-records.js";

/** Why an import stopped before its end: the quota, or the error that ended it. */
export type ImportStop = ({ kind: "quota" } & QuotaStop) | { kind: "error"; error: Error };

export interface SendResult {
  created: number;
  replayed: number;
  /** Records an earlier run created (its journal says so): not sent again. */
  earlier: number;
  failed: { line: number; error: string }[];
  /** Records not sent because the import stopped. */
  pending: number;
  stopped: ImportStop | undefined;
}

export interface SendOptions extends PacerDeps {
  concurrency: number;
  fileHash: string;
  journal: ImportJournal;
  onSettled: (done: number) => void;
}

/** How often one record may meet a 429 (someone else spent the quota) before it counts as failed. */
const MAX_REFUSALS = 5;
/**
 * Records in a row that may be lost (see isLost) and sent again later: now and then, a dropped
 * connection on a long import; many in a row, a server that is failing, which stops the import.
 */
const MAX_LOST_IN_A_ROW = 8;

/** `import-<first 32 hex of the file's SHA-256>-<position>`: the same file and record, the same key. */
export function idempotencyKeyFor(fileHash: string, index: number): string {
  return `import-${fileHash.slice(0, 32)}-${index}`;
}

export async function sendRecords(api: ApiClient, records: readonly ValidRecord[], options: SendOptions): Promise<SendResult> {
  const known = await options.journal.read();
  const pacer = new QuotaPacer(options.concurrency, options);
  const queue = records.filter((record) => !known.has(record.index)).map((record) => ({ record, refusals: 0 }));
  const result: SendResult = { created: 0, replayed: 0, earlier: records.length - queue.length, failed: [], pending: 0, stopped: undefined };
  let done = result.earlier;
  let lostInARow = 0;
  if (done > 0) options.onSettled(done);
  const stop = (error: Error) => {
    result.stopped ??= { kind: "error", error };
    pacer.stop();
  };
  const work = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      if (!(await pacer.acquire())) {
        queue.unshift(item);
        return;
      }
      let headers: ResponseHeaders | undefined;
      try {
        const response = await api.request<Pet>("POST", "/pets", {
          body: item.record.pet,
          headers: { "idempotency-key": idempotencyKeyFor(options.fileHash, item.record.index) },
          onResponse: (seen) => (headers = seen),
        });
        pacer.settle(headers, "ok");
        lostInARow = 0;
        options.journal.add(item.record.index);
        if (response.headers["idempotent-replayed"] === "true") result.replayed++;
        else result.created++;
      } catch (error) {
        const outcome = failureOf(error, headers, options);
        if (isLost(error) && ++item.refusals < MAX_REFUSALS && ++lostInARow < MAX_LOST_IN_A_ROW) {
          pacer.settle(headers, "failed");
          queue.push(item);
          continue;
        }
        if (outcome.kind === "retry" && ++item.refusals < MAX_REFUSALS) {
          pacer.settle(headers, "refused", outcome.retryAfterMs);
          queue.unshift(item);
          continue;
        }
        pacer.settle(headers, "failed");
        if (outcome.kind === "stop") {
          queue.unshift(item);
          if (outcome.quota) result.stopped ??= { kind: "quota", ...outcome.quota };
          stop(error as Error);
          return;
        }
        result.failed.push({ line: item.record.line, error: error instanceof Error ? error.message : String(error) });
      }
      options.onSettled(++done);
    }
  };
  // A failure of the import's own (its progress output's reader gone) stops every worker too.
  const worker = () => work().catch((error: unknown) => stop(error instanceof Error ? error : new Error(String(error))));
  // Workers beyond the pacer's current concurrency simply wait in acquire().
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, queue.length)) }, worker));
  if (pacer.quotaStop) result.stopped ??= { kind: "quota", ...pacer.quotaStop };
  result.pending = queue.length;
  if (result.stopped === undefined && result.failed.length === 0) await options.journal.remove();
  return result;
}

/**
 * A connection the server took and lost, or a gateway's or server's "try again", after the
 * request's own retries. A refused connection or a timeout is not: nobody is there, or nobody answers.
 */
function isLost(error: unknown): boolean {
  if (error instanceof NetworkError) return error.dropped;
  return error instanceof ApiError && [502, 503, 504].includes(error.body.status);
}

type Failure = { kind: "record" } | { kind: "retry"; retryAfterMs: number } | { kind: "stop"; quota?: QuotaStop };

/** What one failed create means for the rest of the import. */
function failureOf(error: unknown, headers: ResponseHeaders | undefined, options: Pick<SendOptions, "maxWaitMs" | "now">): Failure {
  if (error instanceof NetworkError) return { kind: "stop" };
  if (!(error instanceof ApiError)) return { kind: "record" };
  const { status, code } = error.body;
  if (status === 401 || status === 403 || UNEXPECTED_CODES.has(code)) return { kind: "stop" };
  if (status !== 429) return { kind: "record" };
  const retryAfterMs = (error.retryAfter ?? 1) * 1000;
  if (code !== "key_banned" && retryAfterMs <= options.maxWaitMs) return { kind: "retry", retryAfterMs };
  // Someone else spent the quota, or the key is banned, for longer than --max-wait.
  if (code === "key_banned") return { kind: "stop" };
  const now = options.now();
  return { kind: "stop", quota: { window: headers && tightest(quotaWindows(headers, now)), resumeAt: now + retryAfterMs } };
}
