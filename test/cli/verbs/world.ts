// The real app over a fresh memory store, in process, as the CLI's wire: each verb runs main()
// with buffers for its streams, against the server's own routes, keys, scopes and limits.
import { main } from "../../../src/cli/main.js";
import type { StateStore } from "../../../src/cli/state-file.js";
import { defaultLimitsConfig, limitsFor } from "../../../src/limits/plans.js";
import { memoryApp, MEMORY_APP_NOW } from "../../helpers/memory-app.js";
import { appApi } from "../helpers/app-api.js";
import { createTestContext } from "../helpers/test-context.js";

export const ADMIN_KEY = "ps_test_admin_key_0123456789abcdefghijkl";
const BASE_URL = "http://127.0.0.1:3999/v1";

export interface RunOptions {
  /** The key the command uses: the admin key when absent. */
  key?: string;
  /** More of the environment, over PETSTORE_BASE_URL and PETSTORE_API_KEY. */
  env?: Record<string, string>;
  /** true: stdout and stderr are terminals; "terminal": stdin too (a person could be asked). */
  tty?: boolean | "terminal";
  columns?: number;
  /** Answers of the person at the terminal, in order: a question without one fails the test. */
  answers?: (boolean | string | undefined)[];
  /** What the client remembers between runs: a fresh store per run when absent, as a fresh HOME. */
  state?: StateStore;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A server of the plans' default limits (as `petstore serve` has) on a fixed clock, and a way to run verbs against it. */
export async function startWorld(now: () => number = () => MEMORY_APP_NOW) {
  let serverLog = "";
  const limits = defaultLimitsConfig();
  const { app, store } = await memoryApp({
    adminKey: ADMIN_KEY,
    now,
    limitsOf: (key) => limitsFor(key.admin ? "admin" : key.plan, key.limits, limits),
    anonymousLimits: limits.anonymous,
    write: (chunk) => (serverLog += chunk),
  });
  const api = appApi(app, { baseUrl: BASE_URL, timeoutMs: 10_000 });
  const run = async (argv: string[], options: RunOptions = {}): Promise<CliResult> => {
    const tty = options.tty !== undefined && options.tty !== false;
    const test = createTestContext({
      env: { PETSTORE_BASE_URL: BASE_URL, PETSTORE_API_KEY: options.key ?? ADMIN_KEY, ...options.env },
      isStdoutTTY: tty,
      isStderrTTY: tty,
      isStdinTTY: options.tty === "terminal",
      columns: options.columns,
      answers: options.answers,
      state: options.state,
      now,
      timeZone: "UTC",
      api,
    });
    const code = await main(argv, test.ctx);
    return { code, stdout: test.stdout(), stderr: test.stderr() };
  };
  /** POSTs pets straight to the app, in order, as the admin. */
  const seedPets = async (pets: { name: string; categoryId: number; status?: string }[]) => {
    for (const pet of pets) {
      const response = await app.fetch(new Request(`${BASE_URL}/pets`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" }, body: JSON.stringify(pet) }));
      if (response.status !== 201) throw new Error(`seeding ${pet.name}: HTTP ${response.status}`);
    }
  };
  return { app, store, api, run, seedPets, serverLog: () => serverLog };
}
