// followEvents (src/cli/internal/follow-events.ts) with a consumer that falls behind: the stream
// is not read further until the consumer's promise settles, so what waits in memory is bounded
// by the consumer, and each event's data is handed over as the stream carried it.
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { StoreEvent } from "../../src/contract/events.js";
import type { ApiClient } from "../../src/cli/http.js";
import { followEvents } from "../../src/cli/internal/follow-events.js";

const frame = (id: number) => `event: pet.created\nid: ${id}\ndata: {"type":"pet.created", "id":${id},"at":"2026-01-01T00:00:00.000Z","data":{"id":${id}}}\n\n`;

/** A stream of one event per chunk, counting the chunks read. */
function streamOf(count: number): { api: ApiClient; read(): number } {
  let read = 0;
  async function* body(): AsyncGenerator<Uint8Array> {
    for (let id = 1; id <= count; id++) {
      read++;
      yield new TextEncoder().encode(frame(id));
    }
  }
  const api: ApiClient = {
    request: () => Promise.reject(new Error("no request expected")),
    stream: async () => ({ headers: {}, body: body() }),
    close: async () => {},
  };
  return { api, read: () => read };
}

/** A few turns of the event loop: time for a reader that is not held to read on. */
async function someTurns(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await nextTurn();
}

describe("followEvents with a consumer that holds the stream", () => {
  it("reads no further while the consumer's promise is pending, then reads on", async () => {
    const { api, read } = streamOf(5);
    const controller = new AbortController();
    const seen: [StoreEvent, string][] = [];
    let release = () => {};
    let held: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const following = followEvents(
      api,
      { types: undefined, since: undefined, signal: controller.signal },
      {
        onEvent: (event, data) => {
          seen.push([event, data]);
          if (event.id === 2) {
            held();
            return new Promise<void>((resolve) => (release = resolve));
          }
          return undefined;
        },
        onReset: () => {},
        onReconnect: () => controller.abort(),
        sleep: async () => {},
        random: () => 0.5,
      },
    );
    await holding;
    await someTurns();
    expect(seen.map(([event]) => event.id)).toEqual([1, 2]);
    expect(read()).toBe(2);
    release();
    await following;
    expect(seen.map(([event]) => event.id)).toEqual([1, 2, 3, 4, 5]);
    expect(read()).toBe(5);
    // The data as carried (its space included), not a re-serialisation of the parsed event.
    expect(seen[0]![1]).toBe('{"type":"pet.created", "id":1,"at":"2026-01-01T00:00:00.000Z","data":{"id":1}}');
  });
});
