// Cursors are opaque to clients: today the base64url of "p<last id>", so that the format can
// change (e.g. to carry a sort key) without breaking anyone who only follows Link headers. The
// server writes them into a Link; the `cursor` parameter (parameters.ts) reads them back.
import { CURSOR_MAX_LENGTH } from "./limits.js";

const CURSOR_TEXT = new RegExp(`^[A-Za-z0-9_-]{1,${CURSOR_MAX_LENGTH}}$`);

export function encodeCursor(lastId: number): string {
  return Buffer.from(`p${lastId}`, "utf8").toString("base64url");
}

/** The id after which the next page starts, or undefined when the cursor is not one of ours. */
export function decodeCursor(cursor: string): number | undefined {
  if (!CURSOR_TEXT.test(cursor)) return undefined;
  const match = /^p([1-9]\d{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match?.[1]) return undefined;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : undefined;
}
