// The Link to a listing's next page: the same path, the same filters, the next cursor.

/**
 * `<URL of the next page>; rel="next"` (RFC 8288): `pageUrl` (the link base and the path), the filters the request gave, as validated, in
 * their declared order, then `cursor` (contract/cursor.ts). Built as a string rather than through a
 * URL object, whose parsing and serialising would cost each page read.
 */
export function nextPageLink(pageUrl: string, filters: Readonly<Record<string, string | number | undefined>>, cursor: string): string {
  let query = "";
  for (const name in filters) {
    const value = filters[name];
    if (value !== undefined) query += `${name}=${encodeURIComponent(value)}&`;
  }
  return `<${pageUrl}?${query}cursor=${cursor}>; rel="next"`;
}
