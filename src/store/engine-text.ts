// Text about a PostgreSQL or Redis connection for logs and error messages.

/** The URL without its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.href;
  } catch {
    return "(unparsable URL)";
  }
}

/** A connection error's message; Node's AggregateError (IPv4 and IPv6 both refused) has none of its own. */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors[0] instanceof Error) return describeError(error.errors[0]);
  if (!(error instanceof Error)) return String(error);
  return error.message || (error as NodeJS.ErrnoException).code || error.name;
}
