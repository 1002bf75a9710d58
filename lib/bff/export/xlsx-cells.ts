import type { ExportNameFacts } from "@/lib/format/file-names";
import type { DateFilterCoverage, Transaction } from "@/lib/model";

import { isPlainDecimal, neutralizeCell } from "./cell-safety";
import { type ColumnKind, COLUMNS } from "./columns";

/** What goes into the XLSX's cells: typed values for the Transactions sheet, and the About sheet's facts. */

const EXCEL_MAX_CELL_TEXT = 32_767;

export function xlsxText(value: string): string {
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
  if (kind !== "text" && isPlainDecimal(value)) return Number(value);
  return xlsxText(value);
}

export const xlsxRecord = (t: Transaction): XlsxValue[] => COLUMNS.map((c) => xlsxCell(c.kind, c.value(t)));

/** "From (UTC day)", or "From (day in America/Los_Angeles)" for another zone's days. */
function dayLabel(end: "From" | "To", dateFilter: DateFilterCoverage | null | undefined): string {
  const zone = dateFilter?.timeZone ?? "UTC";
  return zone === "UTC" ? `${end} (UTC day)` : `${end} (day in ${zone})`;
}

/** The About sheet: label and value per row (text still to neutralise; counts as numbers). */
export function aboutRows(
  meta: ExportNameFacts & { dataAsOf?: Date | null },
  rowsDone: number,
): [string, string | number][] {
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
    ...(meta.dataAsOf ? ([["Data as of (UTC)", meta.dataAsOf.toISOString()]] as [string, string][]) : []),
    ["Rows expected at the start", meta.expectedRows],
    ["Rows exported", rowsDone],
    [
      "Note",
      "Newest first. Rows added or changed while the export ran may be missing or extra; the row counts show the difference.",
    ],
  ];
}
