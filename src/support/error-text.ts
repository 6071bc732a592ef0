// One way to turn anything thrown into a line of text for a message or a log.

/**
 * A thrown value's message. Node's AggregateError (IPv4 and IPv6 both refused) has none of its
 * own, so its first cause speaks; an Error without a message falls back to its code or name.
 * @example messageOf(new Error("disk full")) === "disk full"
 */
export function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors[0] instanceof Error) return messageOf(error.errors[0]);
  if (!(error instanceof Error)) return String(error);
  return error.message || (error as NodeJS.ErrnoException).code || error.name;
}

/** True when `error` is a Node system error with this code, e.g. isErrnoCode(error, "ENOENT"). */
export function isErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

// C0 and C1 controls, DEL, and the bidirectional overrides (text that reads other than it is stored).
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from a file made safe for a terminal: every control character escaped as \uXXXX, so a
 * damaged file can neither move the cursor nor hide what follows.
 * @example printable("bad \u001b[31m") === "bad \\u001b[31m"
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
