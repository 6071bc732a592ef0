// The kinds of path, query and header parameters the API takes, as zod schemas: a route entry
// declares its parameters with these, the server validates every request with them
// (src/server/internal/parameters.ts), and the document's `parameters` are generated from them.
// Each takes the text as sent and gives the value; its message is the rule a 400
// invalid_parameter states after the parameter's name ("limit must be an integer from 1 to 100, got "0"").
import * as z from "zod";
import { safeEcho } from "../support/safe-echo.js";
import { componentRef } from "./components.js";
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from "./constants.js";
import { decodeCursor, decodePetCursor } from "./cursor.js";
import { EVENT_TYPES, isEventType, type EventType } from "./events.js";
import { CONDITION_MAX_LENGTH, CURSOR_MAX_LENGTH, EVENT_TYPES_MAX_LENGTH, IDEMPOTENCY_KEY_MAX_LENGTH, PET_CURSOR_MAX_LENGTH } from "./limits.js";
import { characterCount } from "./constants.js";
import { PET_SORTS, SEARCH_MAX_LENGTH } from "./name-search.js";

type Issue = { input?: unknown };
const got = (issue: Issue) => `got "${safeEcho(String(issue.input))}"`;

/**
 * Digits as a safe integer, with no sign, exponent, space or leading zero; any other text is
 * left as it is, for the integer schema to refuse and echo as sent.
 */
function integerText(raw: unknown): unknown {
  if (typeof raw !== "string" || !/^(0|[1-9]\d{0,15})$/.test(raw)) return raw;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : raw;
}

/** An integer from `min` to `max`, sent as text; every refusal states `rule` and echoes the text. */
function integer(min: number, max: number, rule: string, meta: { format: "int32" | "int64"; default?: number }) {
  const error = (issue: Issue) => `${rule}, ${got(issue)}`;
  // The document's keywords go on the integer: a conversion's own `default` is not documented.
  return z.preprocess(integerText, z.int({ error }).min(min, { error }).max(max, { error }).meta(meta));
}

/** An id (path) or an id filter (query): a positive safe integer. */
export const positiveId = () => integer(1, Number.MAX_SAFE_INTEGER, "must be a positive integer", { format: "int64" });

/** A listing's page size: 1 to 100, 20 when absent (the handler's default; the document's `default`). */
export const pageLimit = () =>
  integer(LIST_LIMIT_MIN, LIST_LIMIT_MAX, `must be an integer from ${LIST_LIMIT_MIN} to ${LIST_LIMIT_MAX}`, { format: "int32", default: LIST_LIMIT_DEFAULT });

const NOT_OUR_CURSOR = "is not a cursor this server issued; follow the Link header of the previous page";

/** Cursor text of at most `maxLength`, read by `decode`; anything it refuses is no cursor of ours. */
const cursorOf = <T>(maxLength: number, decode: (text: string) => T | undefined) =>
  z
    .string({ error: NOT_OUR_CURSOR })
    .min(1, { error: NOT_OUR_CURSOR })
    .max(maxLength, { error: NOT_OUR_CURSOR })
    .regex(/^[A-Za-z0-9_-]+$/, { error: NOT_OUR_CURSOR })
    .transform((text, ctx) => {
      const position = decode(text);
      if (position === undefined) ctx.issues.push({ code: "custom", message: NOT_OUR_CURSOR, input: text });
      return position ?? z.NEVER;
    });

/** A cursor as the server wrote it into a Link; gives the id the page starts after. */
export const pageCursor = () => cursorOf(CURSOR_MAX_LENGTH, decodeCursor);

/** A cursor of a listing of pets, in any of its orders: gives the order and the place the page starts after. */
export const petPageCursor = () => cursorOf(PET_CURSOR_MAX_LENGTH, decodePetCursor);

/** `q`: text to look for, 1 to 200 characters (code points) as sent; compared folded (name-search.ts). */
export const searchText = () =>
  z
    .string()
    .min(1, { error: "must not be empty: leave q out to list every pet" })
    // length counts UTF-16 units, never fewer than code points: most texts stop there.
    .refine((text) => text.length <= SEARCH_MAX_LENGTH || characterCount(text) <= SEARCH_MAX_LENGTH, {
      error: (issue) => `must be at most ${SEARCH_MAX_LENGTH} characters, got ${characterCount(String(issue.input))}`,
    })
    .meta({ minLength: 1, maxLength: SEARCH_MAX_LENGTH });

/** `sort`: one of a listing's orders; a leading `-` reverses. */
export const petSort = () =>
  z.enum(PET_SORTS, { error: (issue) => `must be one of ${PET_SORTS.join(", ")}, ${got(issue)}` }).meta({ default: "id" });

/** A status filter: one of a component enum's values (PetStatus), documented by reference to it. */
export const statusFilter = <T extends Readonly<Record<string, string>>>(statuses: z.ZodEnum<T>) => {
  const values = statuses.options.join(", ");
  return z.enum(statuses.enum, { error: (issue) => `must be one of ${values}, ${got(issue)}` }).meta(componentRef(statuses));
};

/** If-Match and If-None-Match: a list of entity tags, bounded so that matching them is never a long scan. */
export const entityTags = () => z.string().max(CONDITION_MAX_LENGTH, { error: `must be at most ${CONDITION_MAX_LENGTH} characters` });

/** Idempotency-Key: 1 to 255 visible ASCII characters (a UUID, or the draft's quoted form, taken as sent). */
export const idempotencyKey = () =>
  z
    .string()
    .max(IDEMPOTENCY_KEY_MAX_LENGTH, { error: (issue) => `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, got ${String(issue.input).length}` })
    .regex(/^[!-~]+$/, { error: "must be 1 or more visible ASCII characters (no spaces)" })
    .meta({ minLength: 1 });

const EVENT_ID_RULE = "must be an event id (a non-negative integer)";

/** An event id to resume after; an empty one is as good as none. */
export const eventId = () =>
  z.preprocess(
    (raw) => (raw === "" ? undefined : integerText(typeof raw === "string" ? raw.trim() : raw)),
    z.int({ error: EVENT_ID_RULE }).min(0, { error: EVENT_ID_RULE }).optional().meta({ format: "int64" }),
  );

const TYPE_NAMES = EVENT_TYPES.join("|").replaceAll(".", "\\.");

/** `types` of the event stream: comma-separated event types, as the set of them. */
export const eventTypes = () =>
  z
    .string()
    .max(EVENT_TYPES_MAX_LENGTH, { error: `must be at most ${EVENT_TYPES_MAX_LENGTH} characters` })
    .meta({ pattern: `^ *(${TYPE_NAMES}) *(, *(${TYPE_NAMES}) *)*$` })
    .transform((text, ctx) => {
      const names = text.split(",").map((name) => name.trim());
      const unknown = names.find((name) => !isEventType(name));
      if (unknown === undefined) return new Set(names as EventType[]) as ReadonlySet<EventType>;
      ctx.issues.push({ code: "custom", message: `names an unknown event type "${safeEcho(unknown)}"`, input: text });
      return z.NEVER;
    });

/**
 * Text whose form the document states but this parameter does not enforce: what reads it refuses
 * another form in its own way (a key id of another form names no key: 404; a ticket: 401).
 */
export const documentedText = (maxLength: number, pattern: string) => z.string().meta({ maxLength, pattern });
