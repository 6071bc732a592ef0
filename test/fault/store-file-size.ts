// A real "disk full" that root cannot bypass and that needs no mount: the kernel's per-process file
// size limit (RLIMIT_FSIZE). A write that would grow a file past it is cut short, then fails with
// EFBIG; Node ignores SIGXFSZ, so the process lives on. prlimit(1) comes with util-linux (Debian: essential).
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Sets the soft file size limit of process `pid` (its hard limit stays), e.g. to the journal's size. */
export async function limitFileSize(pid: number, bytes: number | "unlimited"): Promise<void> {
  await run("prlimit", ["--pid", String(pid), `--fsize=${bytes}:`]);
}
