// Why a server cannot listen, in words. listhen's port finder (get-port-please) reports every
// failure as a port it could not find, so the system is asked directly: one bind of a plain
// socket on the same host and port, closed at once, gives the real error code.
import { createServer } from "node:net";
import { messageOf } from "../../support/error-text.js";

/** The error code of binding `host:port` (e.g. EADDRINUSE), or undefined when the bind succeeds. */
export function probeListen(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? messageOf(error)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/** The flags that chose the host and port, for the advice: `serve`'s own, or --metrics-host/--metrics-port. */
export interface ListenFlags {
  host: string;
  port: string;
}

const SERVE_FLAGS: ListenFlags = { host: "--host", port: "--port" };

/**
 * What an error code of listen(2) or getaddrinfo(3) means for `serve --host --port`, with what to
 * do; undefined for a code without a known meaning.
 * @example listenProblem("EADDRNOTAVAIL", "192.0.2.1", 3000) // "192.0.2.1 is not an address of this machine (...)"
 */
export function listenProblem(code: string, host: string, port: number, flags = SERVE_FLAGS): string | undefined {
  switch (code) {
    case "EADDRINUSE":
      return `the port is in use: another process listens on ${port} (stop it, or choose another ${flags.port}; 0 picks a free one)`;
    case "EADDRNOTAVAIL":
      return `${host} is not an address of this machine (EADDRNOTAVAIL): ${flags.host} takes one of its own addresses, 127.0.0.1, or 0.0.0.0 for all of them`;
    case "ENOTFOUND":
    case "EAI_NONAME":
      return `the host name ${host} cannot be resolved (${code}): check ${flags.host}, or give an address`;
    case "EAI_AGAIN":
      return `the host name ${host} cannot be resolved now (EAI_AGAIN: the name server did not answer); try again, or give an address`;
    case "EACCES":
      return `permission denied (EACCES): ports below 1024 need privileges (CAP_NET_BIND_SERVICE); choose ${flags.port} 1024 or above, or run behind a proxy on ${port}`;
    default:
      return undefined;
  }
}

/** The error for a failed listen: the probe's code where it has a meaning, else the error's own words. */
export async function listenFailure(error: unknown, host: string, port: number): Promise<Error> {
  const own = (error as NodeJS.ErrnoException).code;
  const code = own !== undefined && listenProblem(own, host, port) ? own : await probeListen(host, port);
  return cannotListen(host, port, (code !== undefined && listenProblem(code, host, port)) || messageOf(error));
}

/**
 * Fails at once when `host:port` cannot be had, before anything else starts (the db is then never
 * created). A port taken in the moment between this and the real listen is still reported there.
 */
export async function assertListenable(host: string, port: number): Promise<void> {
  const code = await probeListen(host, port);
  if (code !== undefined) throw cannotListen(host, port, listenProblem(code, host, port) ?? code);
}

export function cannotListen(host: string, port: number, why: string): Error {
  return new Error(`cannot listen on ${host}:${port}: ${why}`);
}
