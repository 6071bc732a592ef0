// URL checks shared by the client's settings, `config set` and `serve`'s engine URLs.

/** The value as a URL when it parses and uses one of `protocols` (e.g. ["http:", "https:"]), else undefined. */
export function parseUrlWithProtocol(value: string, protocols: readonly string[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return protocols.includes(url.protocol.toLowerCase()) ? url : undefined;
}

/** An http or https URL, else undefined. */
export const parseHttpUrl = (value: string): URL | undefined => parseUrlWithProtocol(value, ["http:", "https:"]);

/**
 * The URL without its password, for logs and error messages.
 * @example redactUrl("postgres://u:secret@db/petstore") === "postgres://u:***@db/petstore"
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.href;
  } catch {
    return "(unparsable URL)";
  }
}
