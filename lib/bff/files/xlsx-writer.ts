import { PassThrough } from "node:stream";

import ExcelJS from "exceljs";

import type { ExportNameFacts } from "@/lib/format/file-names";

import { COLUMNS, EXPORT_HEADERS, NUMBER_FORMATS } from "./columns";
import { type PendingSheetXml, reachXlsxInternals, type XlsxZip } from "./exceljs-internals";
import { ignoreError, type Production, settle, waitFor } from "./production";
import type { ExportRun } from "./run";
import { aboutRows, xlsxRecord, xlsxText } from "./xlsx-cells";

/**
 * The XLSX writer (exceljs's streaming WorkbookWriter): a Transactions sheet, then an About sheet with the final count.
 * exceljs has no back-pressure of its own: after each row we wait while the sheet XML waiting to be zipped is over
 * `MAX_PENDING_SHEET_XML` (when exceljs-internals finds that buffer) and while the zip's output is full.
 */

/** The zip's output buffer (small: the web stream holds one more chunk). */
const XLSX_OUTPUT_HIGH_WATER_MARK = 64 * 1024;
/** How much sheet XML may wait to be zipped before we stop producing rows. */
const MAX_PENDING_SHEET_XML = 128 * 1024;

async function waitForRoom(sheetXml: PendingSheetXml | null, output: PassThrough, run: ExportRun): Promise<void> {
  // Above the PassThrough's high-water mark `needDrain` is set, so "drain" comes once it is empty.
  if (sheetXml !== null && sheetXml.bytes() >= MAX_PENDING_SHEET_XML) await sheetXml.drained(run.stopSignal);
  if (output.writableNeedDrain) await waitFor(output, "drain", run);
}

/** The workbook of every XLSX we write, streamed into `output` (both exports; styles only where a sheet uses them). */
export function workbookWriter(
  output: WorkbookStream["output"],
  created: Date,
  options: { useStyles: boolean },
): ExcelJS.stream.xlsx.WorkbookWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: options.useStyles,
    useSharedStrings: false,
  });
  workbook.creator = "Fleet Fuel Dashboard";
  workbook.created = created;
  return workbook;
}

/** A table sheet: its header row frozen, its columns (widths, number formats). */
export function addTableSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  columns: Partial<ExcelJS.Column>[],
): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(name, { views: [{ state: "frozen", xSplit: 0, ySplit: 1 }] });
  sheet.columns = columns;
  return sheet;
}

const transactionColumns = (): Partial<ExcelJS.Column>[] =>
  COLUMNS.map((c) => {
    const numFmt = NUMBER_FORMATS[c.kind];
    return { width: c.width, style: numFmt === undefined ? {} : { numFmt } };
  });

function writeAboutSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, meta: ExportNameFacts, rowsDone: number): void {
  const about = workbook.addWorksheet("About");
  about.columns = [{ width: 28 }, { width: 80 }];
  for (const [label, value] of aboutRows(meta, rowsDone)) {
    const row = about.addRow([xlsxText(label), typeof value === "number" ? value : xlsxText(value)]);
    row.getCell(1).font = { bold: true };
    row.commit();
  }
}

/** What a streamed workbook is written with (`produceWorkbook`). */
export interface WorkbookStream {
  /** The workbook's bytes: give it to exceljs's WorkbookWriter as `stream`. */
  output: PassThrough;
  /** Settles when the run stops: a cancel during the zip's last steps leaves commit() pending for ever. */
  stopped: Promise<void>;
  /**
   * Hooks the zip behind the sheet that streams rows (its errors stop the run) and gives the wait to call after each
   * row: while the sheet XML waiting to be zipped or the zip's output is full.
   */
  streamSheet: (workbook: ExcelJS.stream.xlsx.WorkbookWriter, sheet: ExcelJS.Worksheet) => () => Promise<void>;
}

/**
 * A streamed workbook as a Production: the output with back-pressure, the zip's errors heard (exceljs listens for
 * archiver errors only once it finalizes; an unheard "error" would crash the process), a cancel or abort not counted
 * as a failure, and a stopped or failed zip dropped with its buffers. `write` adds the sheets and their rows.
 */
export function produceWorkbook(run: ExportRun, write: (stream: WorkbookStream) => Promise<void>): Production {
  const output = new PassThrough({ highWaterMark: XLSX_OUTPUT_HIGH_WATER_MARK });
  output.on("error", ignoreError);
  let zip: XlsxZip | null = null;
  let zipFailure: { error: unknown } | null = null;
  const stopped = new Promise<void>((resolve) => {
    run.stopSignal.addEventListener("abort", () => {
      resolve();
    });
  });
  const streamSheet = (workbook: ExcelJS.stream.xlsx.WorkbookWriter, sheet: ExcelJS.Worksheet) => {
    const internals = reachXlsxInternals(workbook, sheet);
    zip = internals.zip;
    internals.zip?.onError((error) => {
      zipFailure ??= { error };
      run.stop(error);
    });
    return () => waitForRoom(internals.sheetXml, output, run);
  };

  const guarded = async (): Promise<void> => {
    try {
      await write({ output, stopped, streamSheet });
    } catch (error) {
      if (zipFailure === null && run.isStopped()) return; // cancelled or aborted: not a failure
      run.closeRows();
      throw zipFailure === null ? error : zipFailure.error;
    }
    if (zipFailure !== null) throw zipFailure.error;
  };
  const outcome = settle(guarded());
  void outcome.then((result) => {
    // A stopped or failed zip will never finish: drop it and its buffers.
    if (result !== null || run.isStopped()) {
      zip?.abort();
      output.destroy();
    }
  });
  return { output, outcome, failFast: true };
}

export function produceXlsx(run: ExportRun, meta: ExportNameFacts): Production {
  return produceWorkbook(run, async ({ output, stopped, streamSheet }) => {
    const workbook = workbookWriter(output, meta.generatedAt, { useStyles: true });
    // The sheets are zipped in the order they are added, and a sheet's XML is buffered until the zip reaches it:
    // Transactions must come first, and About (which needs the final count) after it is committed.
    const sheet = addTableSheet(workbook, "Transactions", transactionColumns());
    const waitForRoomAfterRow = streamSheet(workbook, sheet);
    const header = sheet.addRow(EXPORT_HEADERS.map(xlsxText));
    header.font = { bold: true };
    header.commit();
    for (let row = await run.next(); row !== null; row = await run.next()) {
      sheet.addRow(xlsxRecord(row)).commit();
      run.rowWritten();
      await waitForRoomAfterRow();
    }
    if (run.isStopped()) return;
    sheet.commit();
    writeAboutSheet(workbook, meta, run.rowsDone);
    await Promise.race([workbook.commit(), stopped]);
  });
}
