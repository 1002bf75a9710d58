import "server-only";

import type { ExportNameFacts } from "@/lib/format/file-names";
import type { ExportFormat, Transaction } from "@/lib/model";

import { produceCsv } from "./csv-writer";
import { ExportRun } from "./run";
import { toWebStream } from "./web-stream";
import { produceXlsx } from "./xlsx-writer";

/**
 * The transaction export (`GET /api/transactions/export`): the whole filtered set as a streamed CSV or XLSX file.
 *
 * Pull-based end to end: nothing is produced before the first read, and the producer waits whenever the reader
 * does (CSV: the stringifier's back-pressure; XLSX: the zip's input and output, see xlsx-writer.ts). Memory
 * stays flat whatever the size: the only per-row state is a bounded window of recent ids (run.ts).
 *
 * The parts, one job each: cell-safety.ts (formula defence), columns.ts, run.ts (rows in, deduplicated,
 * stoppable), csv-writer.ts, xlsx-writer.ts + xlsx-cells.ts, exceljs-internals.ts (the one place below exceljs's
 * public API), production.ts + web-stream.ts (stream plumbing); the file name is lib/format/file-names.ts.
 */

export type { ExportFormat };
export { neutralizeCell } from "./cell-safety";
export { EXPORT_HEADERS } from "./columns";
export { canGateXlsxSheets } from "./exceljs-internals";
export { contentDisposition, exportFilename } from "@/lib/format/file-names";

/**
 * What the export says about itself: in its file name (lib/format/file-names) and its XLSX About sheet — every filter,
 * the sort, the date basis and zone, and `dataAsOf` (the mirror's last head sync when the rows came from the mirror).
 * The CSV holds the column header and the rows only.
 */
export type ExportMeta = ExportNameFacts;

export interface ExportOptions {
  /** Called after each row written, with the number of (distinct) rows written so far. */
  onRow?: (rowsDone: number) => void;
  /** Aborting stops the export like a cancel does: the upstream walk is stopped, and the stream errors. */
  signal?: AbortSignal;
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/**
 * Streams the rows as a file: pull-based (a slow reader slows the producer), memory flat whatever the size.
 * A row whose id is among the last 1,000 delivered is dropped (the walk itself delivers each id once). `onRow(count)`
 * after each row. Cancelling the stream or aborting `signal` calls `rows.return()` (stops the upstream walk) and stops
 * writing. An error from `rows`: CSV ends with a line `# export incomplete: <message>` and then errors; XLSX errors
 * at once. Messages only, never stacks.
 */
export function exportTransactions(
  format: ExportFormat,
  rows: AsyncIterable<Transaction>,
  meta: ExportMeta,
  options: ExportOptions = {},
): ReadableStream<Uint8Array> {
  const run = new ExportRun(rows, options.onRow);
  const produce = () => (format === "csv" ? produceCsv(run) : produceXlsx(run, meta));
  return toWebStream(run, produce, options.signal);
}
