import "server-only";
import { once } from "node:events";
import { PassThrough, type Readable } from "node:stream";
import { stringify, type Stringifier } from "csv-stringify";
import ExcelJS from "exceljs";
import { RecentIds } from "@/lib/fleet-api";
import type { DateFilterCoverage, Transaction, TransactionFilter } from "@/lib/model";

/**
 * The transaction export (`GET /api/transactions/export`): the whole filtered set as a streamed CSV or XLSX file.
 *
 * Pull-based end to end: nothing is produced before the first read, and the producer waits whenever the reader
 * does (CSV: the stringifier's back-pressure; XLSX: the zip's input and output, see `XlsxBackPressure`). Memory
 * stays flat whatever the size: the only per-row state is a bounded window of recent ids (`RecentIds`).
 */

import type { ExportFormat } from "@/lib/model";
export type { ExportFormat };

export interface ExportMeta {
  /** As chosen: `from`/`to` are days of `dateFilter.timeZone` (UTC days without one). */
  filters: TransactionFilter;
  /** The zone of the days and the instants they cover (see DateFilterCoverage); absent without dates. */
  dateFilter?: DateFilterCoverage | null;
  generatedAt: Date;
  customer: { name: string; code: string | null };
  /** The upstream's total when the export started; the rows delivered may differ slightly if data changes mid-walk. */
  expectedRows: number;
}

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

// ---------------------------------------------------------------------------------------------------------------
// File names

const FILENAME_PREFIX = "fleet-fuel-transactions";
const MAX_SEARCH_SLUG = 40;
const MAX_CUSTOMER_SLUG = 24;

/** Lower-case ASCII letters, digits and single dashes: accents dropped ("é" → "e"), anything else → "-". */
function slugify(text: string, maxLength: number): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, maxLength)
    .replace(/-+$/, "");
}

/**
 * e.g. `fleet-fuel-transactions_PFL_2026-05-01_to_2026-05-31_completed_search-smith_2026-11-20T101112Z_250-rows.csv`:
 * customer code (or a slug of the name when there is none), date range (`all-dates` without one), status, search slug
 * (`search` alone when nothing of it survives slugging), the UTC time it was generated, and the rows expected at the
 * start. The name is the CSV's self-description (its first line is the column header). Only `[A-Za-z0-9._-]` survive.
 */
export function exportFilename(
  format: ExportFormat,
  meta: Pick<ExportMeta, "filters" | "generatedAt" | "customer" | "expectedRows" | "dateFilter">,
): string {
  const { filters, customer } = meta;
  const parts = [FILENAME_PREFIX];
  const customerPart =
    customer.code === null
      ? slugify(customer.name, MAX_CUSTOMER_SLUG)
      : customer.code
          .replace(/[^A-Za-z0-9]+/g, "-")
          .replace(/^-+|-+$/g, "")
          .slice(0, MAX_CUSTOMER_SLUG);
  if (customerPart !== "") parts.push(customerPart);
  if (filters.from !== undefined && filters.to !== undefined) parts.push(`${filters.from}_to_${filters.to}`);
  else if (filters.from !== undefined) parts.push(`from_${filters.from}`);
  else if (filters.to !== undefined) parts.push(`to_${filters.to}`);
  else parts.push("all-dates");
  // The days are the zone's: say which, so two exports of "the same" dates from two zones are told apart.
  const zone = meta.dateFilter?.timeZone;
  if (zone !== undefined && zone !== "UTC") parts.push(zone.replace(/\//g, "-"));
  if (filters.status !== undefined) parts.push(filters.status);
  if (filters.search !== undefined) {
    const slug = slugify(filters.search, MAX_SEARCH_SLUG);
    parts.push(slug === "" ? "search" : `search-${slug}`);
  }
  // 2026-11-20T10:11:12.345Z → 2026-11-20T101112Z (no colons: they are not allowed in Windows file names).
  parts.push(`${meta.generatedAt.toISOString().slice(0, "YYYY-MM-DDTHH:MM:SS".length).replace(/:/g, "")}Z`);
  parts.push(`${String(meta.expectedRows)}-${meta.expectedRows === 1 ? "row" : "rows"}`);
  return `${parts.join("_")}.${format}`.replace(/[^A-Za-z0-9._-]/g, "-");
}

/**
 * `attachment` with both `filename="…"` (an ASCII fallback: accents dropped, anything else `_`) and
 * `filename*=UTF-8''…` (RFC 6266 / RFC 5987 percent-encoding), which browsers prefer when present.
 * Control characters are dropped first so that nothing can end the header line.
 */
export function contentDisposition(filename: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const clean = filename.replace(/[\u0000-\u001f\u007f]/g, "") || "export";
  const ascii = clean
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\x20-\x7e]|["\\]/g, "_");
  // encodeURIComponent leaves ! ' ( ) * alone; RFC 5987's attr-char does not allow ' ( ) *.
  const encoded = encodeURIComponent(clean).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Formula injection

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"): = + - @ tab and CR, plus
 * their full-width forms, which Apple Numbers folds into the ASCII ones, and NUL (some readers drop it, leaving what
 * follows at the start of the cell).
 */
const FORMULA_TRIGGERS: ReadonlySet<string> = new Set([
  "=",
  "+",
  "-",
  "@",
  "\t",
  "\r",
  "\0",
  "\uff1d",
  "\uff0b",
  "\uff0d",
  "\uff20",
]);

/**
 * What a spreadsheet may skip before it looks for a formula: whitespace of any kind (space, NBSP, LF, the Unicode
 * spaces and line separators, BOM), control characters, and the invisible format characters (soft hyphen, zero-width
 * space/joiners, directional marks, word joiner…).
 */
const SKIPPED_PREFIX =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is skipped here
  /^[\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]+/u;

/**
 * Formula-injection defence: a cell whose text starts with a formula trigger, also after leading whitespace and
 * invisible characters (`"\u00a0=HYPERLINK(…)"`, `"\u200b+cmd"`, `"\n-1+1"`), gets a leading `'`, which spreadsheets
 * show as text. The rule, for both formats:
 * - every text cell we write goes through here: names, references, ids, the search text in the "about" row…;
 * - the money and volume columns (gallons, price per gallon, amount, DEF gallons and amount) are exempt because we
 *   produce them from the model's validated decimals, not from user text: XLSX gets them as numbers, CSV as the
 *   plain decimal ("-12.50"). They are exempt only after checking they are plain decimals (`DECIMAL`); anything
 *   else in them is neutralised like text.
 * - CSV also quotes every cell containing `;` (`CSV_QUOTED_MATCH`): spreadsheets in locales whose list separator is
 *   `;` split an unquoted cell there, and the second half would start a new cell, unchecked.
 */
export function neutralizeCell(value: string): string {
  const skipped = SKIPPED_PREFIX.exec(value)?.[0] ?? "";
  // A trigger in the skipped run (tab, CR, NUL; all single UTF-16 units) counts as much as the first visible character.
  const leading = `${skipped}${value.charAt(skipped.length)}`;
  for (let i = 0; i < leading.length; i++) if (FORMULA_TRIGGERS.has(leading.charAt(i))) return `'${value}`;
  return value;
}

/** csv-stringify's `quoted_match`: cells it must quote besides those with `,` `"` CR or LF (see neutralizeCell). */
export const CSV_QUOTED_MATCH = /;/;

const DECIMAL = /^-?\d+\.\d+$/;

// ---------------------------------------------------------------------------------------------------------------
// Columns (one list for both formats)

type ColumnKind = "date" | "text" | "volume" | "price" | "money";

interface ExportColumn {
  header: string;
  kind: ColumnKind;
  /** Excel width in characters. */
  width: number;
  value: (t: Transaction) => string | null;
}

const NUMBER_FORMATS: Record<ColumnKind, string | undefined> = {
  date: "yyyy-mm-dd hh:mm:ss",
  text: undefined,
  volume: "0.000",
  price: "0.000",
  money: "0.00",
};

/** `UTC-06:00`: a text that no spreadsheet takes for a number or a formula (a bare `-06:00` would be both). */
function formatOffset(minutes: number | null): string | null {
  if (minutes === null) return null;
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `UTC${minutes < 0 ? "-" : "+"}${hh}:${mm}`;
}

/** The bullets keep the cell text in every spreadsheet, so leading zeros survive ("•••• 0042"). */
const formatCard = (last4: string): string => `•••• ${last4}`;

const COLUMNS: readonly ExportColumn[] = [
  { header: "Date (UTC)", kind: "date", width: 20, value: (t) => t.at },
  { header: "Local offset", kind: "text", width: 12, value: (t) => formatOffset(t.localOffsetMinutes) },
  { header: "Reference", kind: "text", width: 18, value: (t) => t.reference },
  { header: "Status", kind: "text", width: 11, value: (t) => t.status },
  { header: "Product", kind: "text", width: 12, value: (t) => t.product },
  { header: "Gallons", kind: "volume", width: 10, value: (t) => t.gallons },
  { header: "Price per gallon", kind: "price", width: 15, value: (t) => t.pricePerGallon },
  { header: "Amount", kind: "money", width: 11, value: (t) => t.amount },
  { header: "Station", kind: "text", width: 30, value: (t) => t.station.name },
  { header: "Station number", kind: "text", width: 14, value: (t) => t.station.locNum },
  { header: "City", kind: "text", width: 18, value: (t) => t.station.city },
  { header: "State", kind: "text", width: 6, value: (t) => t.station.state },
  { header: "Driver", kind: "text", width: 22, value: (t) => t.driver.name },
  { header: "Truck", kind: "text", width: 10, value: (t) => t.driver.truckId },
  { header: "Card", kind: "text", width: 10, value: (t) => formatCard(t.card.last4) },
  { header: "DEF gallons", kind: "volume", width: 11, value: (t) => t.def?.gallons ?? null },
  { header: "DEF amount", kind: "money", width: 11, value: (t) => t.def?.amount ?? null },
  { header: "DEF category", kind: "text", width: 13, value: (t) => t.def?.category ?? null },
  { header: "Id", kind: "text", width: 24, value: (t) => t.id },
];

export const EXPORT_HEADERS: readonly string[] = COLUMNS.map((c) => c.header);

// ---------------------------------------------------------------------------------------------------------------
// The run: rows in, deduplicated, stoppable

/**
 * Ids an export remembers to drop repeats it is handed. The transaction walk already delivers each id once (see
 * `iterateTransactions`); this second, bounded check catches a repeat within the last rows of any other source.
 */
const EXPORT_RECENT_IDS = 1_000;

/** Pulls rows one at a time, drops ids seen among the recent ones, and stops the upstream walk on cancel/abort. */
class ExportRun {
  readonly #iterator: AsyncIterator<Transaction>;
  readonly #recent = new RecentIds(EXPORT_RECENT_IDS);
  readonly #stopper = new AbortController();
  readonly #onRow: ((rowsDone: number) => void) | undefined;
  #iteratorFinished = false;
  rowsDone = 0;

  constructor(rows: AsyncIterable<Transaction>, onRow: ((rowsDone: number) => void) | undefined) {
    this.#iterator = rows[Symbol.asyncIterator]();
    this.#onRow = onRow;
  }

  /** A method, not a getter: it changes across awaits, which type narrowing would not see. */
  isStopped(): boolean {
    return this.#stopper.signal.aborted;
  }

  /** Aborted when the run is stopped: every wait of the producers listens to it. */
  get stopSignal(): AbortSignal {
    return this.#stopper.signal;
  }

  /** The next row whose id is not among the recent ones; null at the end, or once stopped. */
  async next(): Promise<Transaction | null> {
    for (;;) {
      if (this.isStopped()) return null;
      let result: IteratorResult<Transaction>;
      try {
        result = await this.#iterator.next();
      } catch (error) {
        this.#iteratorFinished = true; // an iterator that threw is done; nothing to return()
        throw error;
      }
      if (result.done === true) {
        this.#iteratorFinished = true;
        return null;
      }
      if (this.isStopped()) return null;
      if (this.#recent.has(result.value.id)) continue;
      this.#recent.add(result.value.id);
      return result.value;
    }
  }

  rowWritten(): void {
    this.rowsDone++;
    this.#onRow?.(this.rowsDone);
  }

  /** Stops producing and the upstream walk. Idempotent. */
  stop(reason: unknown): void {
    if (!this.isStopped()) this.#stopper.abort(reason);
    this.closeRows();
  }

  /** `return()` on the rows iterator, once, unless it finished by itself (an async generator queues it behind a pending `next()`). */
  closeRows(): void {
    if (this.#iteratorFinished) return;
    this.#iteratorFinished = true;
    const returned = this.#iterator.return?.();
    if (returned !== undefined) {
      returned.then(
        () => undefined,
        () => undefined, // the walk's own clean-up failing must not fail the export a second time
      );
    }
  }
}

/** What a producer gives the web stream: the bytes, and how it ended (never rejects). */
interface Production {
  output: Readable;
  /** Settles after the producer stops writing: `null` when it succeeded, else the failure. */
  outcome: Promise<{ error: unknown } | null>;
  /** XLSX: a failure errors the stream at once (a half-written zip is useless); CSV: only after the output ends. */
  failFast: boolean;
}

const settle = (work: Promise<void>): Promise<{ error: unknown } | null> =>
  work.then(
    () => null,
    (error: unknown) => ({ error }),
  );

/** Resolves when `emitter` emits `event`; rejects (AbortError) when the run stops first. */
async function waitFor(emitter: NodeJS.EventEmitter, event: string, run: ExportRun): Promise<void> {
  await once(emitter, event, { signal: run.stopSignal });
}

// ---------------------------------------------------------------------------------------------------------------
// CSV

const MAX_TRAILER_MESSAGE = 300;

/** One line, no quote and no comma, so the trailer stays an unquoted field starting with `#`. */
function trailerMessage(error: unknown): string {
  const message = error instanceof Error && error.message !== "" ? error.message : "unknown error";
  return (
    message
      // eslint-disable-next-line no-control-regex -- control characters must not break the line
      .replace(/[\u0000-\u001f\u007f]+/g, " ")
      .replace(/"/g, "'")
      // Neither , nor ; (CSV_QUOTED_MATCH): the line must stay one unquoted field that starts with #.
      .replace(/\s*[,;]/g, " -")
      .trim()
      .slice(0, MAX_TRAILER_MESSAGE)
  );
}

function csvCell(kind: ColumnKind, value: string | null): string {
  if (value === null) return "";
  if (kind !== "text" && kind !== "date" && DECIMAL.test(value)) return value;
  return neutralizeCell(value);
}

const csvRecord = (t: Transaction): string[] => COLUMNS.map((c) => csvCell(c.kind, c.value(t)));

async function writeRecord(csv: Stringifier, record: string[], run: ExportRun): Promise<void> {
  if (!csv.write(record)) await waitFor(csv, "drain", run);
}

/** Output streams' errors surface through `readChunk` (`readable.errored`); this only keeps them from being unheard. */
const ignoreError = (): void => undefined;

function produceCsv(run: ExportRun): Production {
  // RFC 4180: CRLF, quotes doubled, fields with , " CR or LF quoted. `quote_record_delimiter` must be forced: it
  // defaults to false once `record_delimiter` is set, which would leave a lone LF in a name unquoted.
  const csv = stringify({
    bom: true,
    record_delimiter: "\r\n",
    quote_record_delimiter: true,
    quoted_match: CSV_QUOTED_MATCH,
    eof: true,
  });
  csv.on("error", ignoreError);
  const work = async (): Promise<void> => {
    try {
      // Line 1 is the column header, as import tools expect: what the file is (customer, filters, time, row count)
      // is said by its name (`exportFilename`), and in an XLSX also by its About sheet, never above the header.
      await writeRecord(csv, [...EXPORT_HEADERS], run);
      for (let row = await run.next(); row !== null; row = await run.next()) {
        await writeRecord(csv, csvRecord(row), run);
        run.rowWritten();
      }
      if (!run.isStopped()) csv.end();
    } catch (error) {
      if (run.isStopped()) return; // cancelled or aborted: nobody reads any more
      run.closeRows();
      // Tell whoever opens the file that it is cut short; the stream errors once this line is out.
      csv.end([`# export incomplete: ${trailerMessage(error)}`]);
      throw error;
    }
  };
  return { output: csv, outcome: settle(work()), failFast: false };
}

// ---------------------------------------------------------------------------------------------------------------
// XLSX

/** The zip's output buffer (small: the web stream holds one more chunk). */
const XLSX_OUTPUT_HIGH_WATER_MARK = 64 * 1024;
/** How much sheet XML may wait to be zipped before we stop producing rows. */
const MAX_PENDING_SHEET_XML = 128 * 1024;
const EXCEL_MAX_CELL_TEXT = 32_767;

/** The readable-stream 2 state of archiver's input PassThrough (not in any typings; checked at run time). */
interface WritableStateLike {
  length: number;
}
interface SheetZipInput extends NodeJS.EventEmitter {
  _writableState: WritableStateLike;
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

/**
 * Back-pressure for exceljs's streaming writer, which has none of its own: a worksheet writes each committed row's
 * XML into a StreamBuf that hands 64 KB batches to the PassThrough archiver wrapped it in, ignoring `write()`'s
 * answer; that PassThrough's buffer then grows without bound whenever zipping, or the reader, is slower than the
 * rows come. So after each row we look at that buffer (`sheet.stream.pipes[0]`, exceljs 4 / archiver 5 internals,
 * found by duck typing) and wait for it to drain past `MAX_PENDING_SHEET_XML`; and we wait whenever the zip's output
 * is full. If exceljs's internals change, only the output wait remains (`hasSheetGate` false; a test checks it).
 */
class XlsxBackPressure {
  readonly #sheetInput: SheetZipInput | null;

  constructor(
    sheet: unknown,
    private readonly output: PassThrough,
  ) {
    const stream: unknown = isObject(sheet) ? Reflect.get(sheet, "stream") : undefined;
    const pipes: unknown = isObject(stream) ? Reflect.get(stream, "pipes") : undefined;
    const input: unknown = Array.isArray(pipes) ? (pipes as unknown[])[0] : undefined;
    this.#sheetInput = isSheetZipInput(input) ? input : null;
  }

  get hasSheetGate(): boolean {
    return this.#sheetInput !== null;
  }

  async wait(run: ExportRun): Promise<void> {
    const input = this.#sheetInput;
    // Above the PassThrough's high-water mark `needDrain` is set, so "drain" comes once it is empty.
    if (input !== null && input._writableState.length >= MAX_PENDING_SHEET_XML) await waitFor(input, "drain", run);
    if (this.output.writableNeedDrain) await waitFor(this.output, "drain", run);
  }
}

/**
 * Whether exceljs's internals still allow the sheet-level back-pressure (a test pins it, so that an upgrade which
 * breaks it fails loudly instead of quietly letting memory grow).
 */
export function canGateXlsxSheets(): boolean {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: new PassThrough(),
    useStyles: false,
    useSharedStrings: false,
  });
  const gate = new XlsxBackPressure(workbook.addWorksheet("probe"), new PassThrough());
  const zip: unknown = Reflect.get(workbook, "zip");
  if (isArchiverLike(zip)) {
    zip.on("error", () => undefined);
    zip.abort();
  }
  return gate.hasSheetGate;
}

function xlsxText(value: string): string {
  // XML turns a CR into LF when read back anyway; Excel's own line break in a cell is LF.
  return neutralizeCell(value).replace(/\r\n?/g, "\n").slice(0, EXCEL_MAX_CELL_TEXT);
}

type XlsxValue = string | number | Date | null;

function xlsxCell(kind: ColumnKind, value: string | null): XlsxValue {
  if (value === null) return null;
  if (kind === "date") {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? xlsxText(value) : date;
  }
  if (kind !== "text" && DECIMAL.test(value)) return Number(value);
  return xlsxText(value);
}

const xlsxRecord = (t: Transaction): XlsxValue[] => COLUMNS.map((c) => xlsxCell(c.kind, c.value(t)));

/** "From (UTC day)", or "From (day in America/Los_Angeles)" for another zone's days. */
function dayLabel(end: "From" | "To", dateFilter: DateFilterCoverage | null | undefined): string {
  const zone = dateFilter?.timeZone ?? "UTC";
  return zone === "UTC" ? `${end} (UTC day)` : `${end} (day in ${zone})`;
}

function aboutRows(meta: ExportMeta, rowsDone: number): [string, string | number][] {
  const { filters, customer } = meta;
  return [
    ["Export", "Fleet Fuel transactions"],
    ["Customer", customer.name],
    ["Customer code", customer.code ?? ""],
    [dayLabel("From", meta.dateFilter), filters.from ?? "any"],
    [dayLabel("To", meta.dateFilter), filters.to ?? "any"],
    ["Status", filters.status ?? "any"],
    ["Search", filters.search ?? "none"],
    ["Generated (UTC)", meta.generatedAt.toISOString()],
    ["Rows expected at the start", meta.expectedRows],
    ["Rows exported", rowsDone],
    [
      "Note",
      "Newest first. Rows added or changed while the export ran may be missing or extra; the row counts show the difference.",
    ],
  ];
}

function produceXlsx(run: ExportRun, meta: ExportMeta): Production {
  const output = new PassThrough({ highWaterMark: XLSX_OUTPUT_HIGH_WATER_MARK });
  output.on("error", ignoreError);
  let zip: ArchiverLike | null = null;
  let zipFailure: { error: unknown } | null = null;
  const stopped = new Promise<void>((resolve) => {
    run.stopSignal.addEventListener("abort", () => {
      resolve();
    });
  });

  const work = async (): Promise<void> => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: true,
      useSharedStrings: false,
    });
    workbook.creator = "Fleet Fuel Dashboard";
    workbook.created = meta.generatedAt;
    const archiver: unknown = Reflect.get(workbook, "zip");
    if (isArchiverLike(archiver)) {
      zip = archiver;
      // exceljs listens for archiver errors only once it finalizes; an unheard "error" would crash the process.
      archiver.on("error", (error: unknown) => {
        zipFailure ??= { error };
        run.stop(error);
      });
    }
    // The sheets are zipped in the order they are added, and a sheet's XML is buffered until the zip reaches it:
    // Transactions must come first, and About (which needs the final count) after it is committed.
    const sheet = workbook.addWorksheet("Transactions", { views: [{ state: "frozen", xSplit: 0, ySplit: 1 }] });
    sheet.columns = COLUMNS.map((c) => {
      const numFmt = NUMBER_FORMATS[c.kind];
      return { width: c.width, style: numFmt === undefined ? {} : { numFmt } };
    });
    const gate = new XlsxBackPressure(sheet, output);
    const header = sheet.addRow(EXPORT_HEADERS.map(xlsxText));
    header.font = { bold: true };
    header.commit();
    for (let row = await run.next(); row !== null; row = await run.next()) {
      sheet.addRow(xlsxRecord(row)).commit();
      run.rowWritten();
      await gate.wait(run);
    }
    if (run.isStopped()) return;
    sheet.commit();

    const about = workbook.addWorksheet("About");
    about.columns = [{ width: 28 }, { width: 80 }];
    for (const [label, value] of aboutRows(meta, run.rowsDone)) {
      const row = about.addRow([xlsxText(label), typeof value === "number" ? value : xlsxText(value)]);
      row.getCell(1).font = { bold: true };
      row.commit();
    }
    // A cancel during the zip's last steps leaves commit() pending for ever (its output is gone): don't wait on it.
    await Promise.race([workbook.commit(), stopped]);
  };

  const guarded = async (): Promise<void> => {
    try {
      await work();
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

// ---------------------------------------------------------------------------------------------------------------
// Node stream → web stream

/**
 * Chunks handed to the web stream are at least this big (but the last): reading whatever is there would hand over
 * a record at a time, each its own write and HTTP chunk.
 */
const MIN_CHUNK_BYTES = 16 * 1024;

/** The next chunk of `readable` (≥ MIN_CHUNK_BYTES but the last), waiting for it; null at its end (or once destroyed). */
function readChunk(readable: Readable): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    if (readable.errored !== null) {
      reject(readable.errored);
      return;
    }
    if (readable.readableEnded || readable.destroyed) {
      resolve(null);
      return;
    }
    const cleanup = (): void => {
      readable.off("readable", onReadable);
      readable.off("end", onEnd);
      readable.off("close", onEnd);
      readable.off("error", onError);
    };
    function onReadable(): void {
      // read(n) gives null until n bytes are buffered, or everything left once the stream has ended; n must not
      // exceed the high-water mark (Node would raise the mark, and the buffer with it).
      const chunk: unknown = readable.read(Math.min(MIN_CHUNK_BYTES, readable.readableHighWaterMark));
      if (chunk === null) return;
      cleanup();
      if (typeof chunk === "string") resolve(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) resolve(chunk);
      else reject(new TypeError("the export's output gave a chunk that is not bytes"));
    }
    function onEnd(): void {
      cleanup();
      resolve(null);
    }
    function onError(error: Error): void {
      cleanup();
      reject(error);
    }
    readable.on("readable", onReadable);
    readable.once("end", onEnd);
    readable.once("close", onEnd);
    readable.once("error", onError);
    onReadable();
  });
}

/**
 * Streams the rows as a file: pull-based (a slow reader slows the producer), memory flat whatever the size.
 * A row whose id is among the last 1,000 delivered is dropped (the walk itself delivers each id once). `onRow(count)` after each row. Cancelling the stream or aborting
 * `signal` calls `rows.return()` (stops the upstream walk) and stops writing. An error from `rows`: CSV ends with a
 * line `# export incomplete: <message>` and then errors; XLSX errors at once. Messages only, never stacks.
 */
export function exportTransactions(
  format: ExportFormat,
  rows: AsyncIterable<Transaction>,
  meta: ExportMeta,
  options: ExportOptions = {},
): ReadableStream<Uint8Array> {
  const { signal } = options;
  const run = new ExportRun(rows, options.onRow);
  let production: Production | null = null;
  let finished = false;
  // A function, not the variable: `finished` changes across awaits, which type narrowing would not see.
  const isFinished = (): boolean => finished;
  let onAbort: (() => void) | null = null;

  const finish = (): void => {
    finished = true;
    if (signal !== undefined && onAbort !== null) signal.removeEventListener("abort", onAbort);
  };
  const stop = (reason: unknown): void => {
    run.stop(reason);
    production?.output.destroy();
    finish();
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (signal === undefined) return;
        onAbort = () => {
          if (isFinished()) return;
          stop(signal.reason);
          controller.error(signal.reason);
        };
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      },

      async pull(controller) {
        if (isFinished()) return;
        if (production === null) {
          const started = format === "csv" ? produceCsv(run) : produceXlsx(run, meta);
          production = started;
          if (started.failFast) {
            void started.outcome.then((result) => {
              if (result === null || isFinished()) return;
              stop(result.error);
              controller.error(result.error);
            });
          }
        }
        const current = production;
        let chunk: Uint8Array | null;
        try {
          chunk = await readChunk(current.output);
        } catch (error) {
          if (isFinished()) return;
          stop(error);
          controller.error(error);
          return;
        }
        if (isFinished()) return;
        if (chunk !== null) {
          controller.enqueue(chunk);
          return;
        }
        // The output ended: the producer is done writing, and its outcome says whether the file is whole.
        const result = await current.outcome;
        if (isFinished()) return;
        finish();
        if (result === null) controller.close();
        else controller.error(result.error);
      },

      cancel(reason) {
        stop(reason);
      },
    },
    // Nothing queued on the web side: a chunk is produced only for a pending read (so nothing at all before the
    // first one). The Node side's buffers (≤ 16 KB CSV, ≤ 64 KB zip output) are the read-ahead.
    { highWaterMark: 0 },
  );
}
