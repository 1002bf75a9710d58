import { describeDateBasis, describeSort, type ExportNameFacts, formatCardNumber } from "@/lib/format/file-names";
import type { Transaction } from "@/lib/model";

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

/** "From (UTC day)", "From (day in America/Los_Angeles)", or "From (purchase-local date)" with `dates=local`. */
function dayLabel(end: "From" | "To", meta: ExportNameFacts): string {
  if (meta.dateBasis === "local") return `${end} (purchase-local date)`;
  const zone = meta.dateFilter?.timeZone ?? "UTC";
  return zone === "UTC" ? `${end} (UTC day)` : `${end} (day in ${zone})`;
}

function rangeWords(min: string | undefined, max: string | undefined, unit: (v: string) => string): string {
  if (min !== undefined && max !== undefined) return `${unit(min)} to ${unit(max)}`;
  if (min !== undefined) return `at least ${unit(min)}`;
  if (max !== undefined) return `at most ${unit(max)}`;
  return "any";
}

/** Every filter the list has, the mirror-only ones too ("any" when not used): label and value. */
function filterRows(meta: ExportNameFacts): [string, string][] {
  const { filters } = meta;
  const n = meta.narrowing ?? {};
  return [
    ["Date basis", describeDateBasis(meta)],
    [dayLabel("From", meta), filters.from ?? "any"],
    [dayLabel("To", meta), filters.to ?? "any"],
    ["Status", filters.status ?? "any"],
    ["Driver", n.driver ?? "any"],
    ["Truck", n.truck ?? "any"],
    ["Card", n.card === undefined ? "any" : formatCardNumber(n.card)],
    ["Station", n.station ?? "any"],
    ["State", n.state ?? "any"],
    ["Product", n.product ?? "any"],
    ["Amount", rangeWords(n.amountMin, n.amountMax, (v) => `$${v}`)],
    ["Gallons", rangeWords(n.gallonsMin, n.gallonsMax, (v) => `${v} gal`)],
    ["Search", filters.search ?? "none"],
    ["Sort", describeSort(meta.sort)],
  ];
}

const LIVE = "live: read from the Fleet Fuel API while this file was written";

/** The About sheet: label and value per row (text still to neutralise; counts as numbers). */
export function aboutRows(meta: ExportNameFacts, rowsDone: number): [string, string | number][] {
  const { customer } = meta;
  return [
    ["Export", "Fleet Fuel transactions"],
    ["Customer", customer.name],
    ["Customer code", customer.code ?? ""],
    ...filterRows(meta),
    ["Generated (UTC)", meta.generatedAt.toISOString()],
    ["Data as of (UTC)", meta.dataAsOf ? meta.dataAsOf.toISOString() : LIVE],
    ["Rows expected at the start", meta.expectedRows],
    ["Rows exported", rowsDone],
    ["Note", "Rows added or changed while the export ran may be missing or extra; the row counts show the difference."],
  ];
}
