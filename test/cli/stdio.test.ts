// The CLI's stdout and stderr when piped: written with fs.writeSync instead of through a
// net.Socket (src/cli/internal/stdio.ts). Real pipes, real descriptors.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { OutputClosedError } from "../../src/cli/errors.js";
import { fdSink, isTerminal } from "../../src/cli/internal/stdio.js";

/** The descriptor of the parent's end of a child's stdin: a pipe libuv left non-blocking. */
function fdOf(stream: Writable): number {
  return (stream as unknown as { _handle: { fd: number } })._handle.fd;
}

describe("isTerminal", () => {
  it("is false for /dev/null, a file and a pipe (none of them loads node:tty to say so)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "petstore-stdio-"));
    const devNull = openSync("/dev/null", "r");
    const file = openSync(join(dir, "out.txt"), "w");
    const child = spawn("cat", [], { stdio: ["pipe", "ignore", "ignore"] });
    try {
      expect(isTerminal(devNull)).toBe(false);
      expect(isTerminal(file)).toBe(false);
      expect(isTerminal(fdOf(child.stdin))).toBe(false);
      expect(isTerminal(12345)).toBe(false);
    } finally {
      closeSync(devNull);
      closeSync(file);
      child.stdin.end();
      await once(child, "close");
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("fdSink", () => {
  it("writes everything in order; a full non-blocking pipe (EAGAIN) hands the rest to the stream", async () => {
    const child = spawn("cat", [], { stdio: ["pipe", "pipe", "ignore"] });
    const received: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => received.push(chunk));
    let fellBack = 0;
    const sink = fdSink(fdOf(child.stdin), () => {
      fellBack += 1;
      return child.stdin;
    });
    // 2 MiB in 64 KiB chunks, each line numbered: far more than a pipe holds (64 KiB on Linux).
    const chunks = Array.from({ length: 32 }, (_, index) => `${String(index).padStart(4, "0")}${"é".repeat(32_766)}\n`);
    for (const chunk of chunks) sink.write(chunk);
    child.stdin.end();
    await once(child, "close");
    expect(fellBack).toBe(1);
    expect(Buffer.concat(received).toString("utf8")).toBe(chunks.join(""));
  });

  it("throws OutputClosedError from every write once the reader has gone (EPIPE), so the command stops", async () => {
    // The reader closes its end of the pipe, says so, and stays alive (so its stdin is still ours).
    const child = spawn("sh", ["-c", "exec 0<&-; echo closed; exec sleep 30"], { stdio: ["pipe", "pipe", "ignore"] });
    child.stdin.on("error", () => {});
    await once(child.stdout, "data");
    let fellBack = 0;
    const sink = fdSink(fdOf(child.stdin), () => {
      fellBack += 1;
      return child.stdin;
    });
    expect(() => sink.write("nobody reads this\n")).toThrow(OutputClosedError);
    expect(() => sink.write("nor this\n")).toThrow(OutputClosedError);
    expect(fellBack).toBe(0);
    child.kill();
    await once(child, "close");
  });

  it("throws other errors: a closed descriptor", () => {
    const fd = openSync("/dev/null", "w");
    closeSync(fd);
    expect(() => fdSink(fd, () => process.stdout).write("x")).toThrow(/EBADF/);
  });
});
