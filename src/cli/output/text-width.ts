// Text as a terminal shows it: measured in columns (display width: a CJK character or an emoji
// takes two, a joined emoji such as 🐕‍🦺 one glyph of two, a combining mark none), and cut
// between grapheme clusters only, so no emoji is split into a U+FFFD and no accent left alone.
// string-width measures what is not plain ASCII. It builds an Intl.Segmenter when it loads, which
// costs more than the rest of start-up's modules together: it is loaded (loadDisplayWidth) only
// when a terminal is written to, and Segmenters are made on first use.
import { stripVTControlCharacters } from "node:util";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
let wideWidth: ((text: string) => number) | undefined;
let graphemes: Intl.Segmenter | undefined;

/** Loads the measure of text beyond ASCII; main() does, before a command writes to a terminal. */
export async function loadDisplayWidth(): Promise<void> {
  wideWidth ??= (await import("string-width")).default;
}

/**
 * The columns `text` takes on a terminal; escape sequences (colour) take none. Before
 * loadDisplayWidth, each character beyond ASCII counts as two: a line may fall short, never over.
 */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  const plain = stripVTControlCharacters(text);
  return wideWidth === undefined ? [...plain].reduce((sum, char) => sum + (char <= "\x7e" ? 1 : 2), 0) : wideWidth(plain);
}

/**
 * `text` cut to at most `width` columns, ending in "…" when something was cut; whole grapheme
 * clusters only. Plain text: escape sequences are not expected here.
 * @example cutToWidth("服务犬的名字", 7) === "服务犬…"
 */
export function cutToWidth(text: string, width: number, ellipsis = "…"): string {
  if (displayWidth(text) <= width) return text;
  const room = width - displayWidth(ellipsis);
  if (room < 0) return "";
  let kept = "";
  let used = 0;
  for (const segment of graphemesOf(text)) {
    const columns = displayWidth(segment);
    if (used + columns > room) break;
    kept += segment;
    used += columns;
  }
  return `${kept}${ellipsis}`;
}

/** `text` followed by blanks up to `width` columns (nothing added when it is as wide already). */
export function padToWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** The grapheme clusters of `text`, in order: what may be cut apart. */
export function graphemesOf(text: string): string[] {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(graphemes.segment(text), ({ segment }) => segment);
}
