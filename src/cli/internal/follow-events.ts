// The reconnecting half of `petstore events`: one stream after another, each resuming with
// Last-Event-ID after the last event printed, with backoff between them.
import { isEventType, RESET_EVENT, type StoreEvent } from "../../contract/events.js";
import { ApiError } from "../errors.js";
import type { ApiClient } from "../http.js";
import { SseParser } from "./sse-parser.js";

export interface FollowOptions {
  types: string[] | undefined;
  /** Resume after this id; live only when undefined. */
  since: number | undefined;
  signal: AbortSignal;
}

export interface FollowHooks {
  /**
   * One new event, and its JSON exactly as the stream's `data:` carried it. A promise holds the
   * stream unread until it settles: a consumer that falls behind makes the stream wait.
   */
  onEvent(event: StoreEvent, data: string): void | Promise<void>;
  /** The server no longer holds the events after `lastId`: some were missed. */
  onReset(lastId: number | undefined): void;
  /** The connection ended or failed; the next attempt is in `delayMs`. */
  onReconnect(reason: string, delayMs: number, lastId: number | undefined): void;
  /** Waits, or less when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  random(): number;
}

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/**
 * Follows the stream until `signal` aborts (resolves) or the server refuses it (throws the
 * ApiError: 401 for a revoked key, 429 too_many_streams). Events are printed once each: after a
 * reconnection, ids at or below the last printed one are dropped.
 */
export async function followEvents(api: ApiClient, options: FollowOptions, hooks: FollowHooks): Promise<void> {
  let lastId = options.since;
  let failures = 0;
  // A hook's own failure (the output's reader gone) ends the command; only the stream's is retried.
  let hookFailure: { error: unknown } | undefined;
  const failed = (error: unknown): never => {
    hookFailure = { error };
    throw error;
  };
  const deliver = (hook: () => void | Promise<void>): void | Promise<void> => {
    try {
      const held = hook();
      return held === undefined ? undefined : held.catch(failed);
    } catch (error) {
      return failed(error);
    }
  };
  const stream = api.stream;
  if (!stream) throw new Error("this client cannot follow a stream");
  while (!options.signal.aborted) {
    let reason: string;
    try {
      const query = options.types ? { types: options.types.join(",") } : undefined;
      const headers: Record<string, string> = lastId === undefined ? {} : { "last-event-id": String(lastId) };
      const response = await stream.call(api, "/events", { query, headers, signal: options.signal });
      failures = 0;
      const parser = new SseParser();
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
          if (message.event === RESET_EVENT) deliver(() => hooks.onReset(lastId));
          else if (isEventType(message.event) && message.id !== undefined && (lastId === undefined || Number(message.id) > lastId)) {
            lastId = Number(message.id);
            const held = deliver(() => hooks.onEvent(JSON.parse(message.data) as StoreEvent, message.data));
            if (held !== undefined) await held;
          }
        }
      }
      reason = "the server ended the stream";
    } catch (error) {
      if (hookFailure) throw hookFailure.error;
      if (options.signal.aborted) return;
      // A refusal is final (a revoked key: 401); anything else (no answer, a cut, a 5xx) is retried.
      if (error instanceof ApiError && !isTransient(error)) throw error;
      reason = error instanceof Error ? error.message : String(error);
      failures++;
    }
    if (options.signal.aborted) return;
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** failures) * (0.5 + hooks.random() / 2);
    hooks.onReconnect(reason, Math.round(delay), lastId);
    await hooks.sleep(delay, options.signal);
  }
}

/** 5xx and 429 other than too_many_streams are worth another try; the rest is the caller's to see. */
function isTransient(error: ApiError): boolean {
  if (error.body.code === "too_many_streams") return false;
  return error.body.status >= 500 || error.body.status === 429;
}
