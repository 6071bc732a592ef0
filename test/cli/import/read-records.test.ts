// The import file formats, record by record, with the line each record starts on.
import { describe, expect, it } from "vitest";
import { formatOfName, readRecords } from "../../../src/cli/internal/import/read-records.js";
import { validateRecords } from "../../../src/cli/internal/import/validate-records.js";

describe("readRecords", () => {
  it.each([
    ["pets.ndjson", "ndjson"],
    ["pets.JSONL", "ndjson"],
    ["pets.json", "json"],
    ["pets.csv", "csv"],
    ["pets.txt", undefined],
  ])("%s is %s by its extension", (name, format) => {
    expect(formatOfName(name)).toBe(format);
  });

  it("reads NDJSON, skipping blank lines and keeping bad lines as errors at their line", () => {
    const records = readRecords('{"name":"A","categoryId":1}\n\n{oops\n', "ndjson");
    expect(records.map((record) => record.line)).toEqual([1, 3]);
    expect(records[1]?.value).toBeInstanceOf(SyntaxError);
  });

  it("reads a JSON array with the line each element starts on, strings with brackets included", () => {
    const text = '[\n  {"name":"a]b,{","categoryId":1},\n\n  {"name":"C","categoryId":2}\n]';
    expect(readRecords(text, "json")).toEqual([
      { line: 2, value: { name: "a]b,{", categoryId: 1 } },
      { line: 4, value: { name: "C", categoryId: 2 } },
    ]);
  });

  it("reads RFC 4180 CSV: quotes, commas, doubled quotes, line breaks, CRLF, columns in any order", () => {
    const text = 'status,name,categoryId\r\nsold,"Rex, Jr.",1\r\n,"Say ""hi""",2\r\navailable,"Two\nLines",3\r\n';
    expect(readRecords(text, "csv")).toEqual([
      { line: 2, value: { status: "sold", name: "Rex, Jr.", categoryId: 1 } },
      { line: 3, value: { name: 'Say "hi"', categoryId: 2 } },
      { line: 4, value: { status: "available", name: "Two\nLines", categoryId: 3 } },
    ]);
  });

  it("refuses a CSV header without name and categoryId, or with other columns", () => {
    expect(() => readRecords("name,category\nA,1\n", "csv")).toThrow(/header must name the columns name,categoryId,status/);
  });

  it("validates against NewPet, each error with its line", () => {
    const { valid, invalid } = validateRecords(readRecords("name,categoryId\nA,1\n,2\nB,x\n", "csv"));
    expect(valid).toEqual([{ index: 0, line: 2, pet: { name: "A", categoryId: 1 } }]);
    expect(invalid.map((record) => record.line)).toEqual([3, 4]);
  });
});
