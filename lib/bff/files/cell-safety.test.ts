import { describe, expect, it } from "vitest";

import { CSV_QUOTED_MATCH, isPlainDecimal, neutralizeCell } from "./cell-safety";

describe("neutralizeCell", () => {
  it.each([
    ["=1+2", "'=1+2"],
    ["+1", "'+1"],
    ["-12.50", "'-12.50"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", "'\rx"],
    ["＝1+2", "'＝1+2"],
    ["Smith", "Smith"],
    ["", ""],
    ["a=b", "a=b"],
    ["'quoted", "'quoted"],
    // Leading whitespace and invisible characters do not hide a formula: spreadsheets skip them.
    [" =1", "' =1"],
    ['\u00a0=HYPERLINK("http://evil.example","x")', '\'\u00a0=HYPERLINK("http://evil.example","x")'],
    ["\u200b+cmd", "'\u200b+cmd"],
    ["\n-1+1", "'\n-1+1"],
    ["\t\t@SUM(A1)", "'\t\t@SUM(A1)"],
    ["\ufeff\u2028\u3000=1", "'\ufeff\u2028\u3000=1"],
    ["\u202e=1", "'\u202e=1"],
    ["\r\n＝1", "'\r\n＝1"],
    // NUL: some readers drop it, leaving the formula in front.
    ["\0=1", "'\0=1"],
    ["\0abc", "'\0abc"],
    [" \0x", "' \0x"],
    // Only the start counts, and plain text with spaces stays as it is.
    ["\u00a0Smith", "\u00a0Smith"],
    ["  leading spaces", "  leading spaces"],
    ["a;b", "a;b"],
  ])("%j → %j", (input, output) => {
    expect(neutralizeCell(input)).toBe(output);
  });
});

describe("isPlainDecimal", () => {
  it.each([
    ["12.50", true],
    ["-12.50", true],
    ["0.000", true],
    ["12", false],
    ["-.5", false],
    ["1e3", false],
    ["=1.5", false],
    ["1.5 ", false],
    [" -1.5", false],
    ["", false],
  ])("%j → %s", (input, plain) => {
    expect(isPlainDecimal(input)).toBe(plain);
  });
});

describe("CSV_QUOTED_MATCH", () => {
  it("matches a ; anywhere, which a ;-locale spreadsheet would split a cell at", () => {
    expect(CSV_QUOTED_MATCH.test("a;b")).toBe(true);
    expect(CSV_QUOTED_MATCH.test("a,b")).toBe(false);
  });
});
