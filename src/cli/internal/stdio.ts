// Standard output and error without node:net. Reading process.stdout or process.stderr on a pipe
// makes Node build a net.Socket, which loads node:net and node:stream with it: a visible share of
// `petstore --help` piped went to that, before a line was printed. On a pipe or
// a file Node's own stdout writes synchronously on Linux; this does the same with fs.writeSync.
// On a terminal the process's tty stream is used as before (it knows the width and the modes).
import { fstatSync, statSync, writeSync } from "node:fs";
import type { TextSink } from "../context.js";
import { OutputClosedError } from "../errors.js";

/**
 * Whether `fd` is a terminal. node:tty (which loads node:net) is asked only about a character
 * device other than /dev/null, which is what a command run with its input ignored reads.
 */
export function isTerminal(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    if (!stats.isCharacterDevice() || stats.rdev === statSync("/dev/null").rdev) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}

/**
 * A sink that writes each chunk whole to `fd`. A closed pipe (EPIPE: `petstore pets list | head -1`)
 * throws OutputClosedError from this write and every later one, so the command stops there and
 * exits 0 quietly. A descriptor left non-blocking by whoever opened it may answer EAGAIN when
 * full: the rest then goes, in order, through `stream()`, which queues and waits.
 */
export function fdSink(fd: number, stream: () => NodeJS.WritableStream): TextSink {
  let fallback: NodeJS.WritableStream | undefined;
  let closed = false;
  return {
    write(chunk: string) {
      if (closed) throw new OutputClosedError();
      if (fallback !== undefined) return fallback.write(chunk);
      const bytes = Buffer.from(chunk, "utf8");
      for (let offset = 0; offset < bytes.length; ) {
        try {
          offset += writeSync(fd, bytes, offset);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "EPIPE") {
            closed = true;
            throw new OutputClosedError();
          }
          if (code !== "EAGAIN") throw error;
          fallback = stream();
          // The stream reports a closed pipe later, as an event: the next write then throws.
          fallback.on("error", (failure: NodeJS.ErrnoException) => {
            if (failure.code === "EPIPE") closed = true;
          });
          return fallback.write(bytes.subarray(offset));
        }
      }
      return true;
    },
  };
}
