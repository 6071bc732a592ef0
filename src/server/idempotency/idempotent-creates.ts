// Idempotent creates for any POST that creates (draft-ietf-httpapi-idempotency-key-header). A
// handler hands over its create and how to answer it; with an Idempotency-Key, the answer is sealed
// and written by the store in the same durable step as the record created, and a retry gets that
// answer back. A new create operation uses it with one call:
//   return creates.run(event, { key, body }, (options) => store.create(input, options), (created) => ({ status: 201, headers, body }));
// (`key`: the operation's validated Idempotency-Key header parameter, undefined when not sent.)
import type { H3Event } from "h3";
import { IdempotencyKeyTakenError, type CreateOptions, type IdempotencyRecord, type IdempotencyStore } from "../../store/idempotency-store.js";
import { idempotencyKeyInProgress, idempotencyKeyReused } from "../errors.js";
import { bearerToken } from "../internal/bearer.js";
import { canonicalTarget, fingerprint, recordId } from "./fingerprint.js";
import { openAnswer, sealAnswer, type StoredAnswer } from "./seal.js";

export type { StoredAnswer } from "./seal.js";

export interface IdempotentCreatesDeps {
  idempotency: IdempotencyStore;
  now: () => number;
}

/** A create's answer with its body typed, as the handler builds it. */
export interface Answer<B> extends StoredAnswer {
  body: B;
}

/** The ids of the idempotent creates this process is answering right now. */
export class IdempotentCreates {
  readonly #deps: IdempotentCreatesDeps;
  readonly #inFlight = new Set<string>();

  constructor(deps: IdempotentCreatesDeps) {
    this.#deps = deps;
  }

  /**
   * Runs `create` and answers with `answer(created)`. With an Idempotency-Key: a stored answer for
   * the same caller and key is given again (422 when the request differs), a create already under
   * way with it is a 409, and otherwise the create stores its answer with what it creates.
   * `key` is the request's Idempotency-Key; `body` its parsed body, part of the request's fingerprint.
   */
  async run<T, B>(
    event: H3Event,
    { key, body }: { key: string | undefined; body: unknown },
    create: (options: CreateOptions<T>) => Promise<T>,
    answer: (created: T) => Answer<B>,
  ): Promise<B> {
    if (key === undefined) return send(event, answer(await create({})));
    const caller = callerOf(event);
    const id = recordId(caller.id, key);
    // Checked and marked in one turn: of two identical requests, the second sees the first.
    if (this.#inFlight.has(id)) throw idempotencyKeyInProgress();
    this.#inFlight.add(id);
    try {
      const request = fingerprint(event.req.method, canonicalTarget(event.url.pathname, event.url.search), body);
      return await this.#createOnce(event, { id, request, secret: caller.secret }, create, answer);
    } finally {
      this.#inFlight.delete(id);
    }
  }

  async #createOnce<T, B>(
    event: H3Event,
    { id, request, secret }: { id: string; request: string; secret: string },
    create: (options: CreateOptions<T>) => Promise<T>,
    answer: (created: T) => Answer<B>,
  ): Promise<B> {
    // Twice at most: a create that finds its id taken (another instance stored an answer in the
    // meantime) looks again and gives that answer.
    for (let attempt = 1; ; attempt++) {
      const now = this.#deps.now();
      const stored = await this.#deps.idempotency.find(id, now);
      if (stored) return replay<B>(event, stored, request, secret);
      let answered: Answer<B> | undefined;
      const seal = (created: T) => sealAnswer((answered = answer(created)), secret, id);
      try {
        const created = await create({ idempotency: { id, fingerprint: request, createdAt: new Date(now).toISOString(), seal } });
        return send(event, answered ?? answer(created));
      } catch (error) {
        if (!(error instanceof IdempotencyKeyTakenError)) throw error;
        if (attempt === 2) throw idempotencyKeyInProgress();
      }
    }
  }
}

/** The stored answer again, marked as such; 422 when the request is not the one it answered. */
function replay<B>(event: H3Event, stored: IdempotencyRecord, request: string, secret: string): B {
  if (stored.fingerprint !== request) throw idempotencyKeyReused("another body, path or query");
  // Another secret under the same key id: only PETSTORE_ADMIN_KEY changed between two starts.
  const answer = openAnswer(stored.answer, secret, stored.id);
  if (!answer) throw idempotencyKeyReused("it was sent with another API key secret");
  event.res.headers.set("idempotent-replayed", "true");
  return send(event, answer as Answer<B>);
}

function send<B>(event: H3Event, answer: Answer<B>): B {
  event.res.status = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) event.res.headers.set(name, value);
  return answer.body;
}

/** Whose request this is: the key the guard let through, and the secret it was sent with. */
function callerOf(event: H3Event): { id: string; secret: string } {
  const principal = event.context.principal;
  const secret = bearerToken(event.req.headers.get("authorization") ?? "");
  if (!principal || secret === undefined) throw new Error("an idempotent create reached without an authenticated caller");
  return { id: principal.id, secret };
}
