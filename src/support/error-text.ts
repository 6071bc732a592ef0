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
