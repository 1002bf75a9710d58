import { describe, expect, it } from "vitest";

import { trailerMessage } from "./csv-writer";
import { EXPECTED_HEADERS, expectedCsvRecord, INJECTION_START, neutral, parseCsv } from "./fixtures/csv";
import { fromList, makeTransactions, META, readAll, rowSource } from "./fixtures/rows";
import { EXPORT_HEADERS, type ExportMeta, exportTransactions } from "./index";

describe("CSV export", () => {
  it("is RFC 4180 with a BOM and CRLF, the header as its first line, and every row as given", async () => {
    const items = makeTransactions(250);
    const { rows } = fromList(items);
    const progress: number[] = [];
    const { bytes, error } = await readAll(exportTransactions("csv", rows, META, { onRow: (n) => progress.push(n) }));
    expect(error).toBeNull();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    const records = parseCsv(text); // throws on a bare LF or CR, so every line break between records is CRLF
    // Import tools take line 1 as the column names: nothing may come before it (the self-description is the file name).
    expect(records[0]).toEqual(EXPECTED_HEADERS);
    expect(EXPORT_HEADERS).toEqual(EXPECTED_HEADERS);
    const data = records.slice(1);
    expect(data).toHaveLength(items.length);
    expect(data).toEqual(items.map(expectedCsvRecord));
    expect(data.map((r) => r[18])).toEqual(items.map((t) => neutral(t.id)));
    expect(progress).toEqual(items.map((_, i) => i + 1));
  });

  it("neutralises formula cells but leaves our decimals, negative ones included, as plain numbers", async () => {
    const items = makeTransactions(60);
    const { bytes } = await readAll(exportTransactions("csv", fromList(items).rows, META));
    const data = parseCsv(bytes.subarray(3).toString("utf8")).slice(1);
    const byId = new Map(data.map((r) => [r[18], r]));
    const station = (name: string): string[] | undefined => data.find((r) => r[8] === name);
    expect(station(`'=HYPERLINK("http://evil.example","click")`)).toBeDefined();
    expect(station("'+1+2")).toBeDefined();
    expect(station("'-3+4")).toBeDefined();
    expect(station("'@SUM(A1:A2)")).toBeDefined();
    expect(station("'\tTabbed")).toBeDefined();
    expect(station("'\rCarriage")).toBeDefined();
    expect(station("'＝fullwidth")).toBeDefined();
    // Quotes, commas and line breaks round-trip through quoting.
    expect(station('O"Brien "Big"')).toBeDefined();
    expect(station("Smith, John")).toBeDefined();
    expect(station("Line one\nLine two")).toBeDefined();
    expect(station("Line one\r\nLine two")).toBeDefined();
    expect(station("Crème brûlée 東京 🚚")).toBeDefined();
    // No text cell anywhere starts with a formula trigger.
    const textColumns = EXPECTED_HEADERS.map((_, i) => i).filter((i) => ![5, 6, 7, 15, 16].includes(i));
    for (const record of data) for (const i of textColumns) expect(record[i] ?? "").not.toMatch(INJECTION_START);
    // Negative amounts (refunds) stay numbers; the id and the truck starting with - or @ do not.
    const refund = items.find((t) => t.amount.startsWith("-"));
    expect(refund).toBeDefined();
    if (refund === undefined) return;
    expect(byId.get(neutral(refund.id))?.[7]).toBe(refund.amount);
    expect(byId.get(neutral(refund.id))?.[5]).toBe(refund.gallons);
    expect(byId.get("'@txn_7")).toBeDefined();
    expect(data.some((r) => r[13] === "'-T9")).toBe(true);
    expect(data.some((r) => r[14] === "•••• 0000")).toBe(true); // leading zeros kept as text
  });

  it("neutralises formulas hidden behind whitespace, invisible characters or NUL, and quotes every cell with ;", async () => {
    const payloads = ['\u00a0=HYPERLINK("http://evil.example","x")', "\u200b+cmd", "\n-1+1", "\0=1", "a;b", "=1;2"];
    const items = makeTransactions(payloads.length).map((t, i) => ({
      ...t,
      station: { ...t.station, name: payloads[i] ?? "" },
    }));
    const { bytes } = await readAll(exportTransactions("csv", fromList(items).rows, META));
    const text = bytes.subarray(3).toString("utf8");
    const data = parseCsv(text).slice(1);
    expect(data.map((r) => r[8])).toEqual(payloads.map((p) => `'${p}`).map((p, i) => (i === 4 ? "a;b" : p)));
    // A `;` locale splits an unquoted cell there: both cells holding one are quoted in the file itself.
    expect(text).toContain(',"a;b",');
    expect(text).toContain(`,"'=1;2",`);
  });

  it("delivers each id once, in the order first seen", async () => {
    const items = makeTransactions(30);
    const withDuplicates = [...items.slice(0, 20), ...items.slice(10, 15), ...items.slice(20)];
    const progress: number[] = [];
    const { bytes } = await readAll(
      exportTransactions("csv", fromList(withDuplicates).rows, META, { onRow: (n) => progress.push(n) }),
    );
    const data = parseCsv(bytes.subarray(3).toString("utf8")).slice(1);
    expect(data.map((r) => r[18])).toEqual(items.map((t) => neutral(t.id)));
    expect(progress.at(-1)).toBe(30);
  });

  it("writes the header alone when there are no rows", async () => {
    const meta: ExportMeta = {
      filters: {},
      generatedAt: META.generatedAt,
      customer: { name: "=Evil Co", code: null },
      expectedRows: 0,
    };
    const { bytes, error } = await readAll(exportTransactions("csv", fromList([]).rows, meta));
    expect(error).toBeNull();
    expect(parseCsv(bytes.subarray(3).toString("utf8"))).toEqual([EXPECTED_HEADERS]);
  });

  it("ends with '# export incomplete: …' and then errors when the rows fail mid-walk", async () => {
    const { rows } = rowSource(1000, { failAfter: 10 });
    const { bytes, error } = await readAll(exportTransactions("csv", rows, META));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("asked us to wait 23 s");
    const text = bytes.subarray(3).toString("utf8");
    const records = parseCsv(text);
    expect(records).toHaveLength(1 + 10 + 1);
    expect(
      text.endsWith("# export incomplete: The Fleet Fuel API asked us to wait 23 s - 'please' retry later\r\n"),
    ).toBe(true);
    expect(text).not.toMatch(/\n\s+at /); // no stack
  });
});

describe("trailerMessage", () => {
  it("is one unquoted field: no line break, quote, comma or semicolon, and no more than 300 characters", () => {
    expect(trailerMessage(new Error('wait 23 s, "please";\r\nretry'))).toBe("wait 23 s - 'please' - retry");
    expect(trailerMessage(new Error("x".repeat(400)))).toHaveLength(300);
    expect(trailerMessage("not an error")).toBe("unknown error");
    expect(trailerMessage(new Error(""))).toBe("unknown error");
  });
});
