import { Chalk, type ChalkInstance } from "chalk";
import type { PetStatus } from "../../contract/values.js";

/** A chalk of its own per stream: the level comes from our decision, never from chalk's detection. */
export function colorsFor(stream: { color: boolean }): ChalkInstance {
  return new Chalk({ level: stream.color ? 1 : 0 });
}

export function colorStatus(chalk: ChalkInstance, status: PetStatus): string {
  switch (status) {
    case "available":
      return chalk.green(status);
    case "pending":
      return chalk.yellow(status);
    case "sold":
      return chalk.red(status);
    default:
      return String(status);
  }
}
