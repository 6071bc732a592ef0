// Reads the headings and links of a Markdown file the way GitHub renders them, enough to check
// that every relative link and #anchor of our docs lands somewhere. No Markdown library: the
// docs use ATX headings, inline links and fenced code only, and this reads exactly that.

/** One `[text](target)` or `![alt](target)` outside code, with the line it is on (1-based). */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** The lines of a Markdown text that are not inside a fenced code block (``` or ~~~). */
function proseLines(text: string): Array<{ text: string; line: number }> {
  const lines: Array<{ text: string; line: number }> = [];
  let fence: string | undefined;
  text.split("\n").forEach((line, index) => {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined && opener) fence = opener[1];
    else if (fence !== undefined && opener && opener[1]!.startsWith(fence)) fence = undefined;
    else if (fence === undefined) lines.push({ text: line, line: index + 1 });
  });
  return lines;
}

/** A line without its inline code spans, so `[a](b)` inside backticks is not a link. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, "");
}

/** The inline links and images of a Markdown text, in order. */
export function linksOf(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { text: line, line: number } of proseLines(text)) {
    for (const match of withoutCodeSpans(line).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1]!, line: number });
    }
  }
  return links;
}

/** The text of an ATX heading as GitHub shows it: code spans, links and emphasis marks gone. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, "")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*]/g, "");
}

/** GitHub's anchor for a heading's text (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown text's headings give, repeated slugs numbered -1, -2 as GitHub does. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(headingText(heading[1]!));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
