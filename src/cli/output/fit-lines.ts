// Lines for a person, fitted to the terminal: a line wider than the terminal is broken at a blank
// (a word wider than the whole line is cut between graphemes), rather than left to the terminal,
// which breaks it mid-word and, for a line redrawn in place, leaves its first half behind.
// Measured in display width; escape sequences count for nothing and are never cut. A line that
// starts as JSON is data and is left whole.
import type { TextSink } from "../context.js";
import { displayWidth, graphemesOf } from "./text-width.js";

// eslint-disable-next-line no-control-regex
const ESCAPE = /(\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?)/;
// The blanks before a word, and the word.
const WORDS = /(\s*)(\S+)/g;

/** `text` with each of its lines fitted to `width` columns; `hang`: continued lines start at that column. */
export function fitText(text: string, width: number, hang?: number): string {
  let out = "";
  fittingSink({ write: (chunk: string) => (out += chunk) }, width, hang).write(text);
  return out;
}

/**
 * A sink that fits what is written to `width` columns, line by line across writes: a line may
 * come in several chunks, and a carriage return starts it again (a progress line redrawn).
 * A continued line is indented as the line began, and two more when it began indented.
 */
export function fittingSink(sink: TextSink, width: number, hang?: number): TextSink {
  const line = { column: 0, indent: "", data: false };
  const newLine = () => Object.assign(line, { column: 0, indent: "", data: false });
  const put = (text: string) => {
    // The first text of a line says how it is indented, and whether it is data.
    if (line.column === 0 && line.indent === "" && !line.data) {
      const lead = /^\s*/.exec(text)?.[0] ?? "";
      line.data = /^\s*[[{]/.test(text);
      line.indent = hang !== undefined ? " ".repeat(hang) : lead === "" ? "" : `${lead}  `;
    }
    return line.data ? passThrough(text) : wrap(text);
  };
  const passThrough = (text: string) => {
    line.column += displayWidth(text);
    return text;
  };
  const wrap = (text: string) => {
    let out = "";
    for (const [, blanks = "", word = ""] of text.matchAll(WORDS)) {
      const wordWidth = displayWidth(word);
      if (line.column > 0 && line.column + blanks.length + wordWidth > width && line.column > displayWidth(line.indent)) {
        out += `\n${line.indent}`;
        line.column = displayWidth(line.indent);
      } else {
        out += blanks;
        line.column += displayWidth(blanks);
      }
      out += cutWord(word, width, line);
    }
    // Blanks after the last word (the next chunk's word may follow them), never past the edge.
    const trailing = (/\s*$/.exec(text)?.[0] ?? "").slice(0, Math.max(0, width - line.column));
    line.column += trailing.length;
    return out + trailing;
  };
  return {
    write(chunk: string) {
      let out = "";
      // Line feeds end a line; a carriage return starts it again at column 0.
      for (const part of chunk.split(/(\r\n|\n|\r)/)) {
        if (part === "\n" || part === "\r\n") {
          out += part;
          newLine();
        } else if (part === "\r") {
          out += part;
          line.column = 0;
        } else if (part !== "") out += put(part);
      }
      return sink.write(out);
    },
  };
}

/** A word written at the line's column: whole when it fits what is left, else cut, between graphemes, over as many lines as it takes. */
function cutWord(word: string, width: number, line: { column: number; indent: string }): string {
  const wordWidth = displayWidth(word);
  if (line.column + wordWidth <= width) {
    line.column += wordWidth;
    return word;
  }
  let out = "";
  for (const unit of word.split(ESCAPE)) {
    if (unit.startsWith("\u001b")) {
      out += unit;
      continue;
    }
    for (const grapheme of graphemesOf(unit)) {
      const columns = displayWidth(grapheme);
      if (line.column + columns > width && line.column > displayWidth(line.indent)) {
        out += `\n${line.indent}`;
        line.column = displayWidth(line.indent);
      }
      out += grapheme;
      line.column += columns;
    }
  }
  return out;
}
