import { PassThrough } from "node:stream";

import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import { canGateXlsxSheets, reachXlsxInternals } from "./exceljs-internals";
import { loadXlsx } from "./fixtures/xlsx";

/**
 * Pins what exceljs-internals.ts relies on below exceljs's public API (exceljs 4, archiver 5). If an upgrade moves
 * any of it, these fail, and the XLSX writer's sheet back-pressure (or its zip error handling) must be redone.
 */

function newWorkbook(): { workbook: ExcelJS.stream.xlsx.WorkbookWriter; output: PassThrough } {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: false,
    useSharedStrings: false,
  });
  return { workbook, output };
}

const ROWS = 3_000;

describe("exceljs internals", () => {
  it("are where exceljs-internals.ts looks: workbook.zip (archiver) and sheet.stream.pipes[0]._writableState.length", () => {
    const { workbook } = newWorkbook();
    const sheet = workbook.addWorksheet("probe");
    const zip: unknown = Reflect.get(workbook, "zip");
    expect(zip).toBeInstanceOf(Object);
    for (const method of ["abort", "on", "pipe"]) expect(Reflect.get(zip as object, method)).toBeTypeOf("function");
    const stream: unknown = Reflect.get(sheet, "stream");
    expect(stream).toMatchObject({ pipes: [expect.anything()] });
    const input: unknown = (Reflect.get(stream as object, "pipes") as unknown[])[0];
    expect(input).toBeInstanceOf(Object);
    expect(Reflect.get(input as object, "_writableState")).toMatchObject({ length: 0 });
    expect(Reflect.get(input as object, "once")).toBeTypeOf("function");
    expect(canGateXlsxSheets()).toBe(true);
    (zip as { abort: () => void }).abort();
  });

  it("give the sheet XML waiting to be zipped, which drains once the file is read, and the file opens with the right rows", async () => {
    const { workbook, output } = newWorkbook();
    const sheet = workbook.addWorksheet("Rows");
    const internals = reachXlsxInternals(workbook, sheet);
    if (internals.zip === null || internals.sheetXml === null) throw new Error("exceljs's internals were not found");
    const zipErrors: unknown[] = [];
    internals.zip.onError((error) => zipErrors.push(error));
    // Committed rows' XML reaches the zip's input in 64 KB batches, synchronously; nothing is zipped before the
    // event loop turns, so it all waits there.
    for (let i = 1; i <= ROWS; i++) sheet.addRow([i, `row ${String(i)}`]).commit();
    const pending = internals.sheetXml.bytes();
    expect(pending).toBeGreaterThan(64 * 1024);
    const input = (
      Reflect.get(Reflect.get(sheet, "stream") as object, "pipes") as { _writableState: { length: number } }[]
    )[0];
    expect(pending).toBe(input?._writableState.length);

    const chunks: Buffer[] = [];
    output.on("data", (chunk: Buffer) => chunks.push(chunk));
    await internals.sheetXml.drained(new AbortController().signal);
    expect(internals.sheetXml.bytes()).toBeLessThan(pending);
    sheet.commit();
    await workbook.commit();
    expect(zipErrors).toEqual([]);

    const read = (await loadXlsx(Buffer.concat(chunks))).getWorksheet("Rows");
    expect(read?.actualRowCount).toBe(ROWS);
    expect(read?.getRow(1).values).toEqual([undefined, 1, "row 1"]);
    expect(read?.getRow(ROWS).values).toEqual([undefined, ROWS, `row ${String(ROWS)}`]);
  });

  it("let a stopped export abort the zip; a wait for the sheet XML ends with the stop", async () => {
    const { workbook } = newWorkbook();
    const sheet = workbook.addWorksheet("Rows");
    const internals = reachXlsxInternals(workbook, sheet);
    const stop = new AbortController();
    const waiting = internals.sheetXml?.drained(stop.signal);
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    internals.zip?.onError(() => undefined);
    expect(() => internals.zip?.abort()).not.toThrow();
  });

  it("come back null, not a crash, when they are not there", () => {
    const { workbook } = newWorkbook();
    const internals = reachXlsxInternals(workbook, { stream: { pipes: [] } });
    expect(internals.sheetXml).toBeNull();
    expect(reachXlsxInternals(workbook, null).sheetXml).toBeNull();
    internals.zip?.onError(() => undefined);
    internals.zip?.abort();
  });
});
