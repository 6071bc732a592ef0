// Questions on the terminal, with @clack/prompts: on stderr (stdout is for data), one line, no
// frame. Imported lazily by the context, so a command that asks nothing never loads it.
import { confirm, password, select, text } from "@clack/prompts";
import type { Choice } from "../context.js";

const common = { input: process.stdin, output: process.stderr, withGuide: false } as const;

/** Yes or no; the answer is no unless the person says yes (Enter, Ctrl-C and Esc all keep it no). */
export async function confirmOnTerminal(question: string): Promise<boolean> {
  await drainTypeahead(process.stdin);
  const answer = await unlessInputEnds(confirm({ ...common, message: question, initialValue: false }));
  return answer === true;
}

/** A line of text; undefined when the person cancels (Ctrl-C, Esc). */
export async function textOnTerminal(question: string, validate?: (value: string) => string | undefined): Promise<string | undefined> {
  await drainTypeahead(process.stdin);
  const answer = await unlessInputEnds(text({ ...common, message: question, validate: validate && ((value) => validate(value ?? "")) }));
  return typeof answer === "string" ? answer : undefined;
}

/** A secret, masked as it is typed, on one line; undefined when cancelled. */
export async function passwordOnTerminal(question: string, validate?: (value: string) => string | undefined): Promise<string | undefined> {
  await drainTypeahead(process.stdin);
  const answer = await unlessInputEnds(password({ ...common, message: question, validate: validate && ((value) => validate(value ?? "")) }));
  return typeof answer === "string" ? answer : undefined;
}

/** One of `choices`; undefined when cancelled. */
export async function selectOnTerminal(question: string, choices: readonly Choice[]): Promise<string | undefined> {
  await drainTypeahead(process.stdin);
  const answer = await unlessInputEnds(select({ ...common, message: question, options: choices.map((choice) => ({ ...choice })) }));
  return typeof answer === "string" ? answer : undefined;
}

const ENDED = Symbol("stdin ended");

/**
 * The answer, or ENDED when stdin closes first (a terminal gone, a pipe at its end): clack would
 * wait for ever, and Node would end the process with an unsettled promise (exit 13).
 */
async function unlessInputEnds<T>(answer: Promise<T>): Promise<T | typeof ENDED> {
  const { stdin } = process;
  if (stdin.readableEnded) return ENDED;
  return Promise.race([answer, new Promise<typeof ENDED>((resolve) => stdin.once("end", () => resolve(ENDED)))]);
}

/**
 * Throws away what was typed before the question shows (a `y` typed ahead, while the command
 * was still fetching, must not answer a confirmation it never saw). Node has no tcflush: read
 * for a moment and discard what arrives, which is what the terminal had buffered.
 */
export async function drainTypeahead(stdin: NodeJS.ReadStream, ms = 30): Promise<void> {
  const wasRaw = stdin.isRaw;
  if (typeof stdin.setRawMode === "function") stdin.setRawMode(true);
  const discard = () => {
    while (stdin.read() !== null);
  };
  stdin.on("readable", discard);
  discard();
  await new Promise((resolve) => setTimeout(resolve, ms));
  stdin.off("readable", discard);
  if (typeof stdin.setRawMode === "function") stdin.setRawMode(wasRaw);
}
