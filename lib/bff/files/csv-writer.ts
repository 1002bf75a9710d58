import { type Stringifier, stringify } from "csv-stringify";

import type { Transaction } from "@/lib/model";

import { CSV_QUOTED_MATCH, isPlainDecimal, neutralizeCell } from "./cell-safety";
import { type ColumnKind, COLUMNS, EXPORT_HEADERS } from "./columns";
import { ignoreError, type Production, settle, waitFor } from "./production";
import type { ExportRun } from "./run";

/** The CSV writer (csv-stringify): RFC 4180 with a BOM, back-pressure from the stringifier's own buffer. */

const MAX_TRAILER_MESSAGE = 300;

/** One line, no quote and no comma, so the trailer stays an unquoted field starting with `#`. */
export function trailerMessage(error: unknown): string {
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
  if (kind !== "text" && kind !== "date" && isPlainDecimal(value)) return value;
  return neutralizeCell(value);
}

const csvRecord = (t: Transaction): string[] => COLUMNS.map((c) => csvCell(c.kind, c.value(t)));

/**
 * The stringifier of every CSV we write (the transactions export, the jurisdiction report): RFC 4180 with a BOM —
 * CRLF, quotes doubled, fields with , " CR or LF quoted (`quote_record_delimiter` must be forced: it defaults to false
 * once `record_delimiter` is set, which would leave a lone LF in a name unquoted), and the formula defence's quoting.
 */
export function csvStringifier(): Stringifier {
  const csv = stringify({
    bom: true,
    record_delimiter: "\r\n",
    quote_record_delimiter: true,
    quoted_match: CSV_QUOTED_MATCH,
    eof: true,
  });
  csv.on("error", ignoreError);
  return csv;
}

/** One record, waiting for the reader when the stringifier's buffer is full (or the run stops). */
export async function writeRecord(csv: Stringifier, record: string[], run: ExportRun): Promise<void> {
  if (!csv.write(record)) await waitFor(csv, "drain", run);
}

/**
 * The CSV: the column header, then one line per row, and nothing else (strict importers read every line as data);
 * what the file is goes into its name. Only a file cut short by a failure ends with a `# export incomplete` line.
 */
export function produceCsv(run: ExportRun): Production {
  const csv = csvStringifier();
  const work = async (): Promise<void> => {
    try {
      // Line 1 is the column header, as import tools expect: what the file is (customer, filters, time, row count)
      // is said by its name (`exportFilename`), and in an XLSX also by its About sheet, never above the header.
      await writeRecord(csv, [...EXPORT_HEADERS], run);
      for (let row = await run.next(); row !== null; row = await run.next()) {
        await writeRecord(csv, csvRecord(row), run);
        run.rowWritten();
      }
      if (run.isStopped()) return;
      csv.end();
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
