// A CliContext for in-process tests: buffers instead of streams, a chosen TTY flag, a sleep
// that records instead of waiting, and the API in memory (its answers held to the OpenAPI document).
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
  stdin?: string;
  /** Where the default config path (~/.config/petstore/config.json) is, when PETSTORE_CONFIG is unset. */
  homedir?: string;
  now?: () => number;
  random?: () => number;
  /** The API the commands talk to; by default one that fails every request (none expected). */
  api?: InMemoryApi;
  /** The person at the fake terminal: their answers to the questions, in order. */
  answers?: boolean[];
  /** What the client remembers between runs; pass one store to several runs to share it. */
  state?: StateStore;
}

/** A state store in memory, whose content a test can read. */
export function memoryStateStore(initial: CliState = {}): StateStore & { current: CliState } {
  const store = {
    current: structuredClone(initial),
    read: async () => structuredClone(store.current),
    write: async (state: CliState) => {
      store.current = structuredClone(state);
    },
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
    },
    now: options.now ?? (() => Date.now()),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: options.random ?? (() => 0.5),
  };
  const api = options.api ?? noRequestsExpected();
  const questions: string[] = [];
  const answers = [...(options.answers ?? [])];
  const ctx: CliContext = {
    ...base,
    env,
    http: httpFactory(base, async () => api.transport),
    config: fileConfigStore(configFilePath(env, options.homedir ?? "/nonexistent-home")),
    state: options.state ?? memoryStateStore(),
    prompt: {
      async confirm(question) {
        if (!base.io.isStdinTTY || !base.io.isStderrTTY) throw new Error(`asked "${question}" without a terminal`);
        questions.push(question);
        const answer = answers.shift();
        if (answer === undefined) throw new Error(`no answer scripted for "${question}"`);
        return answer;
      },
    },
  };
  return { ctx, stdout: () => stdout, stderr: () => stderr, sleeps, questions };
}

function noRequestsExpected(): InMemoryApi {
  return inMemoryApi((request) => {
    throw new Error(`no request was expected, got ${request.method} ${request.path}`);
  });
}
