// Why a listen failed, in words: the codes the system gives, and the real cases this machine can
// produce (a port in use, an address that is not this machine's, a name that does not resolve).
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listenProblem, probeListen } from "../../src/server/internal/listen-failure.js";

const holders: Server[] = [];
afterEach(async () => {
  await Promise.all(holders.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function takenPort(): Promise<number> {
  const holder = createServer();
  holders.push(holder);
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  return (holder.address() as { port: number }).port;
}

describe("listenProblem", () => {
  it.each([
    ["EADDRINUSE", "127.0.0.1", 3000, "the port is in use: another process listens on 3000 (stop it, or choose another --port; 0 picks a free one)"],
    ["EADDRNOTAVAIL", "192.0.2.1", 3000, "192.0.2.1 is not an address of this machine (EADDRNOTAVAIL): --host takes one of its own addresses, 127.0.0.1, or 0.0.0.0 for all of them"],
    ["ENOTFOUND", "nosuchhost.invalid", 3000, "the host name nosuchhost.invalid cannot be resolved (ENOTFOUND): check --host, or give an address"],
    ["EAI_AGAIN", "db.internal", 3000, "the host name db.internal cannot be resolved now (EAI_AGAIN: the name server did not answer); try again, or give an address"],
    ["EACCES", "0.0.0.0", 80, "permission denied (EACCES): ports below 1024 need privileges (CAP_NET_BIND_SERVICE); choose --port 1024 or above, or run behind a proxy on 80"],
  ])("%s on %s:%i", (code, host, port, words) => {
    expect(listenProblem(code, host, port)).toBe(words);
  });

  it("names the flags it is given (the metrics listener's), and knows no meaning for other codes", () => {
    expect(listenProblem("EADDRINUSE", "127.0.0.1", 9464, { host: "--metrics-host", port: "--metrics-port" })).toContain("choose another --metrics-port");
    expect(listenProblem("EMFILE", "127.0.0.1", 3000)).toBeUndefined();
  });
});

describe("probeListen: the system's own answer", () => {
  it("a free port binds (and is let go at once); a taken one is EADDRINUSE", async () => {
    expect(await probeListen("127.0.0.1", 0)).toBeUndefined();
    const port = await takenPort();
    expect(await probeListen("127.0.0.1", port)).toBe("EADDRINUSE");
  });

  it("an address of another machine (TEST-NET-1) is EADDRNOTAVAIL", async () => {
    expect(await probeListen("192.0.2.1", 0)).toBe("EADDRNOTAVAIL");
  });

  it("a name that cannot resolve is ENOTFOUND (EAI_AGAIN where no name server answers)", async () => {
    expect(["ENOTFOUND", "EAI_AGAIN"]).toContain(await probeListen("nosuchhost.invalid", 0));
  });
});
