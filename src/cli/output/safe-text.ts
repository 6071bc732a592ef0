// Text from the server (an Error body's message, a Location) printed where a person reads it. A
// hostile or broken server could otherwise move the cursor, retitle the terminal, hide text or
// print a message of 10 MB; so its control characters never reach the stream, terminal or not
// (a log file read later with `cat` is a terminal again), and its length is capped.

/** The most characters of one message printed; the rest is counted, not shown. */
export const MAX_MESSAGE_CHARS = 1000;

// ESC-led sequences whole (CSI `ESC [ ... final`, OSC `ESC ] ... BEL|ST`, two-character ones), so
// no stray `[31m` is left behind; then any other C0/C1 control, DEL, and the bidirectional
// overrides that make text read other than it is stored (Trojan Source).
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /[\t\n\r]+/g;

/**
 * One line of plain text: escape sequences and control characters removed, line breaks and
 * tabs made spaces, cut to `max` characters with the number left out.
 * @example safeLine("\u001b[31mred\u001b[0m\nnext") === "red next"
 */
export function safeLine(text: string, max = MAX_MESSAGE_CHARS): string {
  const cut = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const clean = cut.replace(ESCAPE_SEQUENCES, "").replace(LINE_BREAKS, " ").replace(CONTROLS, "");
  if (clean.length <= max && cut.length === text.length) return clean;
  const shown = clean.slice(0, max);
  return `${shown}… (${text.length - shown.length} more characters not shown)`;
}

/** The same for text of several lines (a hint): each line made safe, the breaks kept. */
export function safeLines(text: string, max = MAX_MESSAGE_CHARS): string {
  return text
    .split("\n")
    .map((line) => safeLine(line, max))
    .join("\n");
}

/**
 * JSON.stringify escapes C0 controls only; C1 controls (U+009B is a terminal's CSI too) and the
 * bidirectional overrides are escaped as well, so the JSON is safe on a terminal and parses the same.
 */
export function escapeForTerminal(json: string): string {
  return json.replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
