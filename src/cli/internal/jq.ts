// `--jq`: jq 1.7 itself, compiled to WebAssembly (jq-web), loaded only when the flag is given.
// jq-web hands jq its input as one file and collects the output in an array, so a run costs time
// in proportion to the JSON; the WebAssembly jq used before fed stdin a byte at a time, copying
// what was left at each byte, and 10,000 pets took minutes.
import { setFlagsFromString } from "node:v8";
import { UsageError } from "../errors.js";
import { loadJqWeb } from "./jq-web-module.js";

// jq's exit status for an expression that does not compile.
const COMPILE_ERROR = 3;

/** The expression's compile error as a usage error (exit 2); an expression that only fails on some data passes. */
export async function checkJq(expression: string): Promise<void> {
  try {
    await runJq("null", expression);
  } catch (error) {
    if ((error as JqFailure).exitCode === COMPILE_ERROR) throw new UsageError(`--jq: ${(error as Error).message}`);
  }
}

interface JqFailure extends Error {
  exitCode?: number;
}

/** jq -r over `input` (JSON text): every output on its own line, strings raw, as gh prints them. */
export async function runJq(input: string, expression: string): Promise<string> {
  // As for undici's parser (undici-transport.ts): V8's baseline compiler alone, or Node waits at
  // exit for TurboFan to finish recompiling the 2.7 MB of jq in the background.
  setFlagsFromString("--liftoff-only");
  const jq = await loadJqWeb();
  // Emscripten's exit sets process.exitCode to jq's status, and jq-web puts it back only when it
  // was set before: the command's own exit code must not change because jq ran.
  const exitCode = process.exitCode;
  try {
    const out = jq.raw(input, expression, ["-r"]) ?? "";
    return out === "" ? "" : `${out}\n`;
  } catch (error) {
    throw jqFailure(error);
  } finally {
    process.exitCode = exitCode;
  }
}

/** jq's first line of complaint ("jq: error: ..."), with its exit status. */
function jqFailure(error: unknown): JqFailure {
  const { stderr, exitCode, message } = error as { stderr?: string; exitCode?: number; message?: string };
  const failure: JqFailure = new Error((stderr ?? message ?? String(error)).split("\n")[0]);
  failure.exitCode = exitCode;
  return failure;
}
