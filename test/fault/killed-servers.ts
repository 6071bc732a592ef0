// The built server as the crash tests use it: started over a db file, and killed with SIGKILL
// after each test whatever state it is in, so a failed test never leaves a server behind.
import { afterEach } from "vitest";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";
import type { Api } from "./store-api.js";

/** Registers the after-each kill and returns the function that starts a server. */
export function killedAfterEachTest(): (dbPath: string) => Promise<{ server: ServeProcess; api: Api }> {
  const running: ServeProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
  });
  return async (dbPath) => {
    const server = await startServeProcess({ dbPath, args: ["--quiet"] });
    running.push(server);
    return { server, api: { baseUrl: server.baseUrl, key: server.adminKey } };
  };
}
