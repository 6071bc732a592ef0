// A CliContext for in-process tests: buffers instead of streams, a chosen TTY flag, a sleep
// that records instead of waiting (or moves a test clock), and the API in memory (its answers held to the OpenAPI document).
import { configFilePath, fileConfigStore } from "../../../src/cli/config-file.js";
import type { CliContext, ClientBase } from "../../../src/cli/context.js";
import { httpFactory } from "../../../src/cli/process-context.js";
import type { CliState, StateStore } from "../../../src/cli/state-file.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

export interface TestContextOptions {
  env?: Record<string, string | undefined>;
  isStdoutTTY?: boolean;
  isStderrTTY?: boolean;
  isStdinTTY?: boolean;
  /** The terminal's width, for each of stdout and stderr that is a terminal. */
  columns?: number;
  stdin?: string;
  /** Where the default config path (~/.config/petstore/config.json) is, when PETSTORE_CONFIG is unset. */
  homedir?: string;
  now?: () => number;
  /** Called by every wait after it is recorded: a test clock moves forward by `ms` here. */
  sleep?: (ms: number) => Promise<void>;
  /** The zone dates are shown in (CliContext.timeZone); the process's TZ when undefined. */
  timeZone?: string;
  random?: () => number;
  /** The API the commands talk to; by default one that fails every request (none expected). */
  api?: InMemoryApi;
  /** The person at the fake terminal: their answers to the questions, in order (undefined cancels). */
  answers?: (boolean | string | undefined)[];
  /** What the client remembers between runs; pass one store to several runs to share it. */
  state?: StateStore;
}

/** A state store in memory, whose content (and import journals, by id) a test can read. */
export function memoryStateStore(initial: CliState = {}): StateStore & { current: CliState; journals: Map<string, number[]> } {
  const journals = new Map<string, number[]>();
  const store = {
    current: structuredClone(initial),
    journals,
    read: async () => structuredClone(store.current),
    write: async (state: CliState) => {
      store.current = structuredClone(state);
    },
    importJournal: (id: string) => ({
      read: async () => new Set(journals.get(id) ?? []),
      add: (index: number) => void journals.set(id, [...(journals.get(id) ?? []), index]),
      remove: async () => void journals.delete(id),
    }),
  };
  return store;
}

export interface TestContext {
  ctx: CliContext;
  stdout(): string;
  stderr(): string;
  /** Every delay passed to sleep, in order. */
  sleeps: number[];
  /** Every question asked on the fake terminal, in order. */
  questions: string[];
  /** Each pager started: its command and what it was given (which, as on a terminal, also shows on stdout). */
  pagers: { command: string; text: string; closed: boolean }[];
}

export function createTestContext(options: TestContextOptions = {}): TestContext {
  let stdout = "";
  let stderr = "";
  const sleeps: number[] = [];
  const env = options.env ?? {};
  const base: ClientBase = {
    io: {
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      readStdin: async () => options.stdin ?? "",
      isStdinTTY: options.isStdinTTY ?? false,
      isStdoutTTY: options.isStdoutTTY ?? false,
      isStderrTTY: options.isStderrTTY ?? false,
      columns: options.isStdoutTTY === true ? options.columns : undefined,
      stderrColumns: options.isStderrTTY === true ? options.columns : undefined,
    },
    now: options.now ?? (() => Date.now()),
    sleep: async (ms) => {
      sleeps.push(ms);
      await options.sleep?.(ms);
    },
    random: options.random ?? (() => 0.5),
  };
  const api = options.api ?? noRequestsExpected();
  const questions: string[] = [];
  const pagers: TestContext["pagers"] = [];
  const answers = [...(options.answers ?? [])];
  // Asks like a terminal would: only with one, recording the question, checking the answer.
  const ask = (question: string, validate?: (value: string) => string | undefined): boolean | string | undefined => {
    if (!base.io.isStdinTTY || !base.io.isStderrTTY) throw new Error(`asked "${question}" without a terminal`);
    questions.push(question);
    if (answers.length === 0) throw new Error(`no answer scripted for "${question}"`);
    const answer = answers.shift();
    const problem = typeof answer === "string" ? validate?.(answer) : undefined;
    if (problem !== undefined) throw new Error(`the scripted answer "${answer}" to "${question}" is refused: ${problem}`);
    return answer;
  };
  const asText = (answer: boolean | string | undefined) => {
    if (typeof answer === "boolean") throw new Error("a yes/no answer scripted for a text question");
    return answer;
  };
  const ctx: CliContext = {
    ...base,
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    env,
    http: httpFactory(base, async () => api.transport),
    // Requests that are not the API's go on the real wire, to a receiver the test runs.
    transport: async (settings) => (await import("../../../src/cli/internal/undici-transport.js")).undiciTransport(settings),
    config: fileConfigStore(configFilePath(env, options.homedir ?? "/nonexistent-home")),
    state: options.state ?? memoryStateStore(),
    pager(command) {
      const pager = { command, text: "", closed: false };
      pagers.push(pager);
      return {
        write: (chunk) => {
          pager.text += chunk;
          stdout += chunk;
        },
        close: async () => {
          pager.closed = true;
        },
      };
    },
    prompt: {
      async confirm(question) {
        const answer = ask(question);
        if (typeof answer !== "boolean") throw new Error(`a text answer scripted for the yes/no question "${question}"`);
        return answer;
      },
      text: async (question, validate) => asText(ask(question, validate)),
      password: async (question, validate) => asText(ask(`${question} (masked)`, validate)),
      async select(question, choices) {
        const answer = asText(ask(`${question} [${choices.map((choice) => choice.value).join("|")}]`));
        if (answer !== undefined && !choices.some((choice) => choice.value === answer)) throw new Error(`"${answer}" is not a choice`);
        return answer;
      },
    },
  };
  return { ctx, stdout: () => stdout, stderr: () => stderr, sleeps, questions, pagers };
}

function noRequestsExpected(): InMemoryApi {
  return inMemoryApi((request) => {
    throw new Error(`no request was expected, got ${request.method} ${request.path}`);
  });
}
