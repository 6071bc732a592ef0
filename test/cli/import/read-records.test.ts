// The import file formats, record by record, with the line each record starts on.
import { describe, expect, it } from "vitest";
import { formatOfName, readRecords } from "../../../src/cli/internal/import/read-records.js";
import { validateRecords } from "../../../src/cli/internal/import/validate-records.js";
import { petWriter } from "../../../src/cli/output/pet-export.js";

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

  it("reads CSV as spreadsheets write it: a BOM before the header, a lone CR kept as data, quoted CRLF", () => {
    const text = '\uFEFFname,categoryId\r\nLone\rCR,1\r\n"Two\r\nLines",2\r\n\r\nLast,3';
    expect(readRecords(text, "csv")).toEqual([
      { line: 2, value: { name: "Lone\rCR", categoryId: 1 } },
      { line: 3, value: { name: "Two\r\nLines", categoryId: 2 } },
      { line: 6, value: { name: "Last", categoryId: 3 } },
    ]);
  });

  it("refuses a CSV file whose quote never closes, naming the line", () => {
    expect(() => readRecords('name,categoryId\nA,1\n"B,2\n', "csv")).toThrow(/^the file is not valid CSV: .*line 3/);
  });

  it("reads back exactly what `pets export --format csv` wrote: lone CRs, CRLFs, quotes, commas, BOMs, blanks", () => {
    const names = ["lone\rCR", "crlf\r\ninside", "lf\ninside", 'say "hi"', "a, b", "\uFEFFbom first", "bom\uFEFFinside", " padded ", "🐕‍🦺 服务犬", "plain"];
    const pets = names.map((name, index) => ({ id: index + 1, name, categoryId: index + 1, status: "sold" as const }));
    let text = "";
    const writer = petWriter("csv", { write: (chunk: string) => (text += chunk) });
    writer.write(pets.slice(0, 4));
    writer.write(pets.slice(4));
    writer.end();
    // A spreadsheet ends a row at a lone CR and trims blanks: those fields are quoted.
    expect(text).toContain('"lone\rCR",1,sold\n');
    expect(text).toContain('" padded ",8,sold\n');
    const { valid, invalid } = validateRecords(readRecords(text, "csv"));
    expect(invalid).toEqual([]);
    expect(valid.map((record) => record.pet)).toEqual(pets.map(({ id: _id, ...pet }) => pet));
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
