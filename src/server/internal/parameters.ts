// The one place a request's path, query and header parameters are read and validated, with the
// zod schemas its route entry declares (src/contract/parameters.ts): a handler receives them as
// values, or the request is answered 400 invalid_parameter naming the parameter and its rule.
// Every API operation refuses a query parameter it does not declare, or one given twice, so a
// typo such as `?stauts=sold` is never silently ignored. The probes and /metrics, outside the
// API, take any query string: what load balancers and scrapers add is not ours to judge.
import type { H3Event } from "h3";
import type * as z from "zod";
import type { InputOf, ParameterShape, RouteEntry } from "../../contract/route-types.js";
import { safeEcho } from "../../support/safe-echo.js";
import { invalidParameter } from "../errors.js";
import { headerReader } from "./request-header.js";

type Values = Record<string, unknown>;
/** What most requests send of an operation's header parameters: none (shared, never written). */
const NONE: Values = Object.freeze({});

/** Reads one operation's parameters; made once per operation, when routes are registered. */
export interface ParameterReader<R> {
  /** All of them: path, then query, then headers (those already read may be passed in). */
  read(event: H3Event, headers?: InputOf<R>["headers"]): InputOf<R>;
  /** The header parameters alone: what a kept answer still depends on (see KeptFirst). */
  readHeaders(event: H3Event): InputOf<R>["headers"];
}

export function parameterReader<R extends RouteEntry>(route: R): ParameterReader<R> {
  return new OperationParameters(route) as ParameterReader<R>;
}

class OperationParameters implements ParameterReader<RouteEntry> {
  readonly #path: Parameter[];
  readonly #query: Parameter[];
  readonly #headers: Array<{ parameter: Parameter; read: (event: H3Event) => string | null }>;
  /** The probes and /metrics, outside the API, take any query string. */
  readonly #strict: boolean;
  readonly #unknown: string;

  constructor(route: RouteEntry) {
    this.#path = declared(route.request?.path);
    this.#query = declared(route.request?.query);
    this.#headers = declared(route.request?.headers).map((parameter) => ({ parameter, read: headerReader(parameter.name.toLowerCase()) }));
    this.#strict = route.outsideApi !== true;
    const known = this.#query.map((parameter) => parameter.name);
    this.#unknown = `is not a known query parameter (${known.length === 0 ? "this operation takes none" : `known: ${known.join(", ")}`})`;
  }

  read(event: H3Event, headers?: Values): InputOf<RouteEntry> {
    const path: Values = {};
    for (const parameter of this.#path) path[parameter.name] = parameter.parse(event.context.params?.[parameter.name] ?? "");
    return { path, query: this.#readQuery(event.url), headers: headers ?? this.readHeaders(event) };
  }

  readHeaders(event: H3Event): Values {
    let values: Values | undefined;
    for (const { parameter, read } of this.#headers) {
      const text = read(event);
      if (text !== null) (values ??= {})[parameter.name] = parameter.parse(text);
    }
    return values ?? NONE;
  }

  #readQuery(url: URL): Values {
    // No query string (most requests): nothing to look at.
    if (url.search.length <= 1 || !this.#strict) return {};
    const sent = new Map<string, string>();
    for (const [name, text] of url.searchParams) {
      if (!this.#query.some((parameter) => parameter.name === name)) throw invalidParameter(safeEcho(name), this.#unknown);
      if (sent.has(name)) throw invalidParameter(name, "must be given at most once");
      sent.set(name, text);
    }
    const values: Values = {};
    for (const parameter of this.#query) {
      const text = sent.get(parameter.name);
      if (text !== undefined) values[parameter.name] = parameter.parse(text);
    }
    return values;
  }
}

/** One declared parameter: its name, its schema, and the last text it accepted, with its value. */
class Parameter {
  #lastText: string | undefined;
  #lastValue: unknown;

  constructor(
    readonly name: string,
    readonly schema: z.ZodType,
  ) {}

  /**
   * The value of `text`, or 400 invalid_parameter naming the parameter and its rule. Pollers send
   * the same text again and again (a limit, an If-None-Match): the last one accepted is
   * remembered, when its value is a plain value no handler could change.
   */
  parse(text: string): unknown {
    if (text === this.#lastText) return this.#lastValue;
    const parsed = this.schema.safeParse(text);
    if (!parsed.success) throw invalidParameter(this.name, parsed.error.issues[0]?.message ?? "is not valid");
    if (typeof parsed.data !== "object") {
      this.#lastText = text;
      this.#lastValue = parsed.data;
    }
    return parsed.data;
  }
}

function declared(shape: ParameterShape | undefined): Parameter[] {
  return shape === undefined ? [] : Object.entries(shape).map(([name, schema]) => new Parameter(name, schema));
}
