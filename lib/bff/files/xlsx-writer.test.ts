import type ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import { EXPECTED_HEADERS, INJECTION_START, neutral, offsetText } from "./fixtures/csv";
import { fromList, makeTransactions, META, readAll, rowSource } from "./fixtures/rows";
import { loadXlsx } from "./fixtures/xlsx";
import { type ExportMeta, exportTransactions } from "./index";

describe("XLSX export", () => {
  const xlsxText = (text: string): string => neutral(text).replace(/\r\n?/g, "\n");

  it("has a Transactions sheet with typed cells and an About sheet with the exact count", async () => {
    const items = makeTransactions(250);
    const withDuplicates = [...items, ...items.slice(0, 5)];
    const progress: number[] = [];
    const { bytes, error } = await readAll(
      exportTransactions("xlsx", fromList(withDuplicates).rows, META, { onRow: (n) => progress.push(n) }),
    );
    expect(error).toBeNull();
    expect(progress.at(-1)).toBe(250);
    const workbook = await loadXlsx(bytes);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(["Transactions", "About"]);

    const sheet = workbook.getWorksheet("Transactions");
    if (sheet === undefined) throw new Error("no Transactions sheet");
    expect(sheet.actualRowCount).toBe(1 + items.length);
    const header = sheet.getRow(1);
    expect(EXPECTED_HEADERS.map((_, i) => header.getCell(i + 1).value)).toEqual(EXPECTED_HEADERS);
    expect(header.getCell(1).font.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.getColumn(9).width).toBeGreaterThan(10);

    items.forEach((t, index) => {
      const row = sheet.getRow(index + 2);
      const cell = (column: number): ExcelJS.CellValue => row.getCell(column).value;
      expect(cell(1)).toEqual(new Date(t.at));
      expect(row.getCell(1).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
      expect(cell(2)).toBe(t.localOffsetMinutes === null ? null : offsetText(t.localOffsetMinutes));
      expect(cell(3)).toBe(xlsxText(t.reference));
      expect(cell(6)).toBe(Number(t.gallons));
      expect(row.getCell(6).numFmt).toBe("0.000");
      expect(cell(7)).toBe(Number(t.pricePerGallon));
      expect(cell(8)).toBe(Number(t.amount));
      expect(row.getCell(8).numFmt).toBe("0.00");
      expect(cell(9)).toBe(t.station.name === "" ? null : xlsxText(t.station.name));
      expect(cell(10)).toBe(t.station.locNum);
      expect(cell(13)).toBe(t.driver.name === "" ? null : xlsxText(t.driver.name));
      expect(cell(14)).toBe(t.driver.truckId === null ? null : xlsxText(t.driver.truckId));
      expect(cell(15)).toBe(`•••• ${t.card.last4}`);
      expect(cell(16)).toBe(t.def === null ? null : Number(t.def.gallons));
      expect(cell(17)).toBe(t.def === null ? null : Number(t.def.amount));
      expect(cell(18)).toBe(t.def === null ? null : xlsxText(t.def.category));
      expect(cell(19)).toBe(xlsxText(t.id));
    });
    // Numbers are numbers, negative ones too; every string cell is neutralised.
    expect(items.some((t) => Number(t.amount) < 0)).toBe(true);
    sheet.eachRow((row, rowNumber) => {
      if (rowNumber === 1) return;
      for (const column of [6, 7, 8]) expect(typeof row.getCell(column).value).toBe("number");
      row.eachCell((cell) => {
        if (typeof cell.value === "string") expect(cell.value).not.toMatch(INJECTION_START);
      });
    });

    const about = workbook.getWorksheet("About");
    if (about === undefined) throw new Error("no About sheet");
    const facts = new Map<string, ExcelJS.CellValue>();
    about.eachRow((row) => facts.set(row.getCell(1).text, row.getCell(2).value));
    expect(facts.get("Customer")).toBe("Prairie Freight Lines");
    expect(facts.get("Customer code")).toBe("PFL");
    expect(facts.get("From (UTC day)")).toBe("2026-05-01");
    expect(facts.get("To (UTC day)")).toBe("2026-05-31");
    expect(facts.get("Status")).toBe("completed");
    expect(facts.get("Search")).toBe('Smith "Jr", =x');
    expect(facts.get("Generated (UTC)")).toBe("2026-11-20T10:11:12.345Z");
    expect(facts.get("Rows expected at the start")).toBe(250);
    expect(facts.get("Rows exported")).toBe(250);
  });

  it("neutralises a search that starts with a formula trigger in the About sheet", async () => {
    const meta: ExportMeta = { ...META, filters: { search: "=cmd|' /C calc'!A0" } };
    const workbook = await loadXlsx(
      (await readAll(exportTransactions("xlsx", fromList(makeTransactions(3)).rows, meta))).bytes,
    );
    const about = workbook.getWorksheet("About");
    const values: ExcelJS.CellValue[] = [];
    about?.eachRow((row) => values.push(row.getCell(2).value));
    expect(values).toContain("'=cmd|' /C calc'!A0");
    expect(values).toContain("any");
  });

  it("errors the stream when the rows fail mid-walk", async () => {
    const { rows } = rowSource(1000, { failAfter: 10 });
    const { error } = await readAll(exportTransactions("xlsx", rows, META));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("asked us to wait 23 s");
  });
});
