import { once } from "node:events";
import { PassThrough } from "node:stream";

import ExcelJS from "exceljs";

/**
 * The only place that reaches below exceljs's public API (exceljs 4, archiver 5). Its streaming writer has no
 * back-pressure and does not listen for its zip's errors until it finalizes; the XLSX writer needs both, so this
 * finds, by duck typing, checked at run time:
 * - `workbook.zip`: the archiver instance zipping the workbook (to hear its errors, and to abort it);
 * - `sheet.stream.pipes[0]`: the PassThrough archiver wrapped the sheet's XML in. A worksheet writes each committed
 *   row's XML into a StreamBuf that hands 64 KB batches to it, ignoring `write()`'s answer, so its buffer
 *   (`_writableState.length`, readable-stream 2) grows without bound whenever zipping, or the reader, is slower.
 * Whatever is not found comes back null, and the writer goes on without it; exceljs-internals.test.ts pins both, so
 * an upgrade that moves them fails loudly instead of quietly letting memory grow.
 */

/** archiver's zip of a workbook. */
export interface XlsxZip {
  onError: (listener: (error: unknown) => void) => void;
  abort: () => void;
}

/** The sheet XML written but not zipped yet. */
export interface PendingSheetXml {
  bytes: () => number;
  /** Resolves on the buffer's next "drain"; rejects (AbortError) when `signal` aborts first. */
  drained: (signal: AbortSignal) => Promise<void>;
}

interface XlsxInternals {
  zip: XlsxZip | null;
  sheetXml: PendingSheetXml | null;
}

interface SheetZipInput extends NodeJS.EventEmitter {
  _writableState: { length: number };
}
interface ArchiverLike extends NodeJS.EventEmitter {
  abort: () => unknown;
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;

function isSheetZipInput(value: unknown): value is SheetZipInput {
  if (!isObject(value) || !("_writableState" in value) || !("once" in value) || typeof value.once !== "function")
    return false;
  const state = value._writableState;
  return isObject(state) && "length" in state && typeof state.length === "number";
}

function isArchiverLike(value: unknown): value is ArchiverLike {
  return (
    isObject(value) &&
    "abort" in value &&
    typeof value.abort === "function" &&
    "on" in value &&
    typeof value.on === "function"
  );
}

/** The internals of a streaming `workbook` and of one of its `sheet`s (as `addWorksheet` returned it). */
export function reachXlsxInternals(workbook: ExcelJS.stream.xlsx.WorkbookWriter, sheet: unknown): XlsxInternals {
  const zip: unknown = Reflect.get(workbook, "zip");
  const stream: unknown = isObject(sheet) ? Reflect.get(sheet, "stream") : undefined;
  const pipes: unknown = isObject(stream) ? Reflect.get(stream, "pipes") : undefined;
  const input: unknown = Array.isArray(pipes) ? (pipes as unknown[])[0] : undefined;
  return {
    zip: isArchiverLike(zip)
      ? {
          onError: (listener) => {
            zip.on("error", listener);
          },
          abort: () => {
            zip.abort();
          },
        }
      : null,
    sheetXml: isSheetZipInput(input)
      ? {
          bytes: () => input._writableState.length,
          drained: async (signal) => {
            await once(input, "drain", { signal });
          },
        }
      : null,
  };
}

/** Whether this exceljs still has both internals (a probe on a throwaway workbook). */
export function canGateXlsxSheets(): boolean {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: new PassThrough(),
    useStyles: false,
    useSharedStrings: false,
  });
  const internals = reachXlsxInternals(workbook, workbook.addWorksheet("probe"));
  internals.zip?.onError(() => undefined);
  internals.zip?.abort();
  return internals.zip !== null && internals.sheetXml !== null;
}
