/** Echo user input in messages without letting it grow them without bound. */
export function safeEcho(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}
