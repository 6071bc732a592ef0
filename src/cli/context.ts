// What a command may touch of the world, as types: the real one is built in process-context.ts,
// a test's in test/cli/helpers/test-context.ts. Kept free of code so every layer can name it.
import type { ConfigStore } from "./config-file.js";
import type { ApiClient, HttpSettings, Transport } from "./http.js";
import type { Env, Settings } from "./settings.js";
import type { StateStore } from "./state-file.js";

/** Somewhere text goes: process.stdout in production, a buffer in tests. */
export interface TextSink {
  write(chunk: string): unknown;
}

export interface CliIO {
  stdout: TextSink;
  stderr: TextSink;
  /** Reads all of standard input (for `config set api-key -`). */
  readStdin(): Promise<string>;
  isStdinTTY: boolean;
  isStdoutTTY: boolean;
  isStderrTTY: boolean;
  /** The terminal's width when stdout is one; tables are cut to fit it. */
  columns?: number;
  /** The terminal's width when stderr is one (usage errors are wrapped to it). */
  stderrColumns?: number;
}

/** Every side effect a command may have arrives through this, built once at the edge. */
export interface CliContext {
  io: CliIO;
  env: Env;
  now: () => number;
  /** The IANA zone dates are shown in on a terminal; the system's when undefined. */
  timeZone?: string;
  /** Waits, or less when `signal` aborts (Ctrl-C); tests pass one that records the delay instead of sleeping. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1): jitter for backoff. */
  random: () => number;
  /** An API client for these settings; the command closes it (see withClient). */
  http: (settings: Settings) => ApiClient;
  /**
   * The bare wire, for requests that are not the API's (`events --forward-to`'s POSTs to a
   * receiver): no key, no retries, no redirects followed; the caller closes it.
   */
  transport: (settings: Pick<HttpSettings, "baseUrl" | "timeoutMs">) => Promise<Transport>;
  /** The config file: base URL and key, per profile. */
  config: ConfigStore;
  /** What the client remembers between runs (when a notice was last shown). */
  state: StateStore;
  /** Starts a pager (a shell command line) that the output is written to; tests pass a recorder. */
  pager: (command: string) => Pager;
  /** Questions to the person at the terminal; ask only when io.isStdinTTY and io.isStderrTTY. */
  prompt: Prompter;
  /**
   * A signal that aborts on Ctrl-C (SIGINT), for a command that runs until interrupted and
   * then ends normally. Asked for only by such a command: the others keep Node's default.
   */
  interrupt?: () => AbortSignal;
}

/** A running pager: its input, and the wait for the person to quit it. */
export interface Pager {
  write(chunk: string): void;
  close(): Promise<void>;
}

/** A value a person may pick in a select, with what they read. */
export interface Choice {
  value: string;
  label: string;
  hint?: string;
}

/** Checks an answer: undefined when fine, else the message to show under the question. */
export type Validate = (value: string) => string | undefined;

/** Each question resolves to undefined when the person cancels (Ctrl-C, Esc). */
export interface Prompter {
  /** Asks a yes/no question; true only for an explicit yes. */
  confirm(question: string): Promise<boolean>;
  text(question: string, validate?: Validate): Promise<string | undefined>;
  /** Masked as it is typed, on one line. */
  password(question: string, validate?: Validate): Promise<string | undefined>;
  select(question: string, choices: readonly Choice[]): Promise<string | undefined>;
}

/** The parts of a context that an API client's retries and messages need. */
export type ClientBase = Pick<CliContext, "io" | "now" | "sleep" | "random">;

/** Runs `use` with a client for these settings and closes its connections afterwards, so the process can exit. */
export async function withClient<T>(ctx: Pick<CliContext, "http">, settings: Settings, use: (api: ApiClient) => Promise<T>): Promise<T> {
  const api = ctx.http(settings);
  try {
    return await use(api);
  } finally {
    await api.close();
  }
}
