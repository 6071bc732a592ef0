// Questions on the terminal, with @clack/prompts: on stderr (stdout is for data), one line, no
// frame. Imported lazily by the context, so a command that asks nothing never loads it.
import { confirm, isCancel } from "@clack/prompts";

/** Yes or no; the answer is no unless the person says yes (Enter, Ctrl-C and Esc all keep it no). */
export async function confirmOnTerminal(question: string): Promise<boolean> {
  const answer = await confirm({
    message: question,
    initialValue: false,
    input: process.stdin,
    output: process.stderr,
    withGuide: false,
  });
  return !isCancel(answer) && answer;
}
