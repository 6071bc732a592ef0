// Ports for the servers the tests start, in this process or another. Asking for port 0 goes through listhen's port
// finder (get-port-please), which binds port 0, closes it, and listens on that number again later:
// with a self-signed certificate made in between, long enough for another process's bind(0) or an
// outgoing connection to take the same number, and listhen's listen then fails outside any promise
// (an uncaught EADDRINUSE, seen once in CI). Ports below the kernel's ephemeral range are never
// handed out by bind(0) or connect(), and each vitest worker takes its own block of them, so no two
// servers of the suite ask for the same one; one still taken (a server another test left open, a
// service on a developer's machine) is a clean "in use" error, and the next port is tried.
import { createServer } from "node:net";

const FIRST_PORT = 20_000;
const BLOCK = 2_000;
// Linux's default ephemeral range starts at 32768: six blocks fit below it.
const BLOCKS = Math.floor((32_768 - FIRST_PORT) / BLOCK);
const TRIES = 20;

const worker = Number(process.env.VITEST_POOL_ID ?? 1);
// A random start: the files a worker runs one after another each start their own count.
let next = Math.floor(Math.random() * BLOCK);

function takePort(): number {
  const port = FIRST_PORT + ((worker - 1) % BLOCKS) * BLOCK + (next % BLOCK);
  next += 1;
  return port;
}

/** Runs `listen` on a port of this worker's block, moving on while the port is in use. */
export async function onTestPort<T>(listen: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await listen(takePort());
    } catch (error) {
      if (attempt === TRIES || !/port is in use/.test(String(error))) throw error;
    }
  }
}

/**
 * A port of this worker's block that nothing listens on now, and that no later server of this
 * worker is given: for a server in another process told its port (`serve --port N`, PostgreSQL,
 * Redis), which cannot be retried from here, or for a URL that must refuse connections.
 */
export function unusedTestPort(): Promise<number> {
  return onTestPort(async (port) => {
    if (!(await listensFree(port))) throw new Error(`port ${port} is in use`);
    return port;
  });
}

function listensFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}
