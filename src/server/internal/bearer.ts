/** The token of an `Authorization: Bearer <token>` header, or undefined when it has another form. */
export function bearerToken(header: string): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(header)?.[1] || undefined;
}
