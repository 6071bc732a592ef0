// A JSON array written item by item, byte for byte what renderJson would print for the whole
// array, so streaming changes nothing a script reads.
import type { TextSink } from "../context.js";

export interface JsonArrayWriter {
  write(items: readonly unknown[]): void;
  end(): void;
}

export function jsonArrayWriter(sink: TextSink): JsonArrayWriter {
  let first = true;
  return {
    write(items) {
      for (const item of items) {
        sink.write(`${first ? "[\n" : ",\n"}${JSON.stringify(item, null, 2).replace(/^/gm, "  ")}`);
        first = false;
      }
    },
    end() {
      sink.write(first ? "[]\n" : "\n]\n");
    },
  };
}
