// --public-url as the server's links use it (src/server/internal/public-url.ts).

/**
 * The public URL as links use it (`https://api.example.com` or, behind a proxy that mounts the
 * API under a path, `https://example.com/petstore`), or why it cannot be one.
 */
export function parsePublicUrl(text: string): { url: string; problem?: undefined } | { url?: undefined; problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `--public-url must be an absolute http(s) URL, got "${text}"` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { problem: `--public-url must be an http or https URL, got "${text}"` };
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    return { problem: `--public-url must be a scheme, a host and at most a path, got "${text}"` };
  }
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}
