// The one place the client uses another package's private internals: two modules of undici.
// The public path they replace is the index, `import { Agent } from "undici"` and
// `agent.request(options)`; the index loads all of undici (fetch, WebSocket, caches, mocks), and
// `pets list` started measurably slower with it (docs/performance.md: cli-startup.mjs, both
// builds interleaved). These two modules are the Agent and its request(), nothing else.
// undici is pinned to an exact version for them; test/cli/undici-parts.test.ts fails, naming the
// module, when an update moves or reshapes one, and checks that the public path answers the same.
// When the private parts are not what this expects at run time, the public path is used.
import type { Agent, Dispatcher } from "undici";
import AgentClass from "undici/lib/dispatcher/agent.js";
import dispatcherRequest from "undici/lib/api/api-request.js";

/** What the transport needs of undici. */
export interface UndiciParts {
  /** A keep-alive connection pool per origin. */
  createAgent(options: Agent.Options): Dispatcher;
  /** One request through `agent`: the answer's status, headers and body stream. */
  request(agent: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

/** The Agent and request() from undici's own modules, without its index. */
export const privateParts: UndiciParts = {
  createAgent: (options) => new AgentClass(options),
  request: (agent, options) => dispatcherRequest.call(agent, options),
};

/** The public path: undici's index (left out of the bundle: loaded from node_modules when used). */
export async function publicParts(): Promise<UndiciParts> {
  const undici = await import("undici");
  return {
    createAgent: (options) => new undici.Agent(options),
    request: (agent, options) => agent.request(options),
  };
}

/** The private parts when they are a class and a function as expected, else the public path. */
export function undiciParts(): UndiciParts | Promise<UndiciParts> {
  return privatePartsUsable() ? privateParts : publicParts();
}

/** Whether the private modules export what this module uses: a constructor with request() to give it. */
export function privatePartsUsable(): boolean {
  return typeof AgentClass === "function" && typeof dispatcherRequest === "function" && typeof AgentClass.prototype.dispatch === "function";
}
