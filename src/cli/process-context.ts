// The context of a real run: the process's streams and environment, the config file, undici,
// the terminal. Built once by bin/petstore.js; nothing else reads `process`.
import { homedir } from "node:os";
import { configFilePath, fileConfigStore } from "./config-file.js";
import type { CliContext, ClientBase, Pager } from "./context.js";
// The HTTP client's own modules are small and part of start-up (one file: each lazily imported file
// cost more to load than its code); undici is loaded by the first request, never at start-up.
import { createApiClient, type ApiClient, type Method, type RequestOptions, type Transport } from "./http.js";
import { httpReporter } from "./output/http-log.js";
import { warnOn } from "./output/notice.js";
import { stderrOf } from "./output/stream.js";
import { fdSink, isTerminal } from "./internal/stdio.js";
import { describeSources, type Settings } from "./settings.js";
import { fileStateStore, stateFilePath } from "./state-file.js";

export function createProcessContext(): CliContext {
  const stdoutTTY = isTerminal(1);
  const stderrTTY = isTerminal(2);
  const base: ClientBase = {
    io: {
      // Piped, the streams are written with fs.writeSync, without node:net (internal/stdio.ts).
      stdout: stdoutTTY ? processStream("stdout") : fdSink(1, () => processStream("stdout")),
      stderr: stderrTTY ? processStream("stderr") : fdSink(2, () => processStream("stderr")),
      readStdin: () => readAll(process.stdin),
      isStdinTTY: isTerminal(0),
      isStdoutTTY: stdoutTTY,
      isStderrTTY: stderrTTY,
      columns: stdoutTTY ? process.stdout.columns : undefined,
      stderrColumns: stderrTTY ? process.stderr.columns : undefined,
    },
    now: () => Date.now(),
    sleep,
    random: Math.random,
  };
  return {
    ...base,
    env: process.env,
    http: httpFactory(base, undiciFor),
    // A receiver of forwarded events is not the API server: the API's --ca-cert is not its.
    transport: async (settings) => (await import("./internal/undici-transport.js")).undiciTransport(settings),
    config: fileConfigStore(configFilePath(process.env, homedir()), (message) => warnOn(base.io, process.env, message)),
    state: fileStateStore(stateFilePath(process.env, homedir())),
    pager: spawnPager,
    interrupt: () => {
      const controller = new AbortController();
      process.once("SIGINT", () => controller.abort());
      return controller.signal;
    },
    prompt: {
      confirm: async (question) => (await terminalPrompt()).confirmOnTerminal(question),
      text: async (question, validate) => (await terminalPrompt()).textOnTerminal(question, validate),
      password: async (question, validate) => (await terminalPrompt()).passwordOnTerminal(question, validate),
      select: async (question, choices) => (await terminalPrompt()).selectOnTerminal(question, choices),
    },
  };
}

/** undici for the API, loaded by the first request, trusting the --ca-cert file's certificates too. */
async function undiciFor(settings: Settings): Promise<Transport> {
  const { trustedCertificates, undiciTransport } = await import("./internal/undici-transport.js");
  return undiciTransport(settings, await trustedCertificates(settings.caCert));
}

/**
 * The `http` of a context: clients whose retries and verbose lines go to the context's stderr,
 * over the transport `transportFor` gives (undici here, an in-memory API in tests).
 */
export function httpFactory(base: ClientBase, transportFor: (settings: Settings) => Promise<Transport>): CliContext["http"] {
  return (settings) =>
    lazyClient(async () => {
      const transport = transportFor(settings);
      const stderr = stderrOf(base, settings);
      if (settings.verbose) stderr.write(`${describeSources(settings)}\n`);
      const hooks = httpReporter(stderr, settings);
      return createApiClient(settings, { ...hooks, transport: await transport, now: base.now, sleep: base.sleep, random: base.random });
    });
}

/** A client that loads itself on its first request, so commands that never send one never load it. */
function lazyClient(load: () => Promise<ApiClient>): ApiClient {
  let loading: Promise<ApiClient> | undefined;
  return {
    async request<T>(method: Method, target: string, options?: RequestOptions) {
      loading ??= load();
      return (await loading).request<T>(method, target, options);
    },
    async stream(target, options) {
      loading ??= load();
      const client = await loading;
      if (!client.stream) throw new Error("this client cannot follow a stream");
      return client.stream(target, options);
    },
    async close() {
      if (loading) await (await loading).close();
    },
  };
}

/** `sh -c <command>` with our stdout and stderr; quitting it early (less's q) is not an error. */
function spawnPager(command: string): Pager {
  // Loaded here, not at the top: node:child_process costs every command's start-up, the pager few.
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn("sh", ["-c", command], { stdio: ["pipe", "inherit", "inherit"] });
  child.stdin.on("error", ignoreClosedPipe);
  const exited = new Promise<void>((resolve) => {
    child.once("close", () => resolve());
    child.once("error", () => resolve());
  });
  return {
    write: (chunk) => {
      child.stdin.write(chunk);
    },
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/** process.stdout or process.stderr, whose errors other than a closed pipe are thrown as before. */
function processStream(name: "stdout" | "stderr"): NodeJS.WriteStream {
  const stream = process[name];
  // `petstore pets list | head -1`: a closed pipe ends the output, not the process with a stack trace.
  if (!stream.listeners("error").includes(ignoreClosedPipe)) stream.on("error", ignoreClosedPipe);
  return stream;
}

/** A wait that an abort cuts short, its timer cleared: a pending timer would keep the process up after Ctrl-C. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

const terminalPrompt = () => import("./internal/terminal-prompt.js");

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== "EPIPE") throw error;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
