import "server-only";

import type ExcelJS from "exceljs";

import { toMinorUnits } from "@/lib/model/decimal-math";

import { EXPORT_HEADERS } from "../files/columns";
import { parseCsv } from "../files/fixtures/csv";
import { loadXlsx } from "../files/fixtures/xlsx";

/**
 * Tests only (the tie-out, issue 25 item 2): one figure as every page, reply and file states it — how many
 * purchases, their gallons and their amount — and the comparison of two figures that claim the same definition.
 * Decimals are compared as exact minor units (thousandths of a gallon, cents), so "12.5" and "12.500" agree and a
 * cent's difference does not.
 */
export interface Figure {
  count: number;
  /** Null where the source states no gallons (a truck list's purchases without a truck). */
  gallons: string | null;
  /** Null where the source states no amount (failed purchases). */
  amount: string | null;
}

/** One claim that two sources give the same figure: `why` names the definition both claim. */
export interface Pair {
  why: string;
  left: { source: string; figure: Figure };
  right: { source: string; figure: Figure };
}

const same = (a: string | null, b: string | null, places: number) =>
  a === null || b === null || toMinorUnits(a, places) === toMinorUnits(b, places);

/** The pairs that disagree, each as a sentence with both sides' numbers (empty when everything ties out). */
export function mismatchesOf(pairs: readonly Pair[]): string[] {
  return pairs
    .filter(
      ({ left: { figure: l }, right: { figure: r } }) =>
        l.count !== r.count || !same(l.gallons, r.gallons, 3) || !same(l.amount, r.amount, 2),
    )
    .map(
      ({ why, left, right }) =>
        `${why}: ${left.source} says ${String(left.figure.count)} / ${left.figure.gallons ?? "–"} gal / $${left.figure.amount ?? "–"}, ` +
        `${right.source} says ${String(right.figure.count)} / ${right.figure.gallons ?? "–"} gal / $${right.figure.amount ?? "–"}`,
    );
}

/** Figures added up exactly. */
export function sumFigures(figures: readonly Figure[]): Figure {
  let count = 0;
  let gallons = 0n;
  let amount = 0n;
  for (const f of figures) {
    count += f.count;
    gallons += toMinorUnits(f.gallons ?? "0", 3);
    amount += toMinorUnits(f.amount ?? "0", 2);
  }
  return { count, gallons: fromUnits(gallons, 3), amount: fromUnits(amount, 2) };
}

const fromUnits = (units: bigint, places: number): string => {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -places)}.${digits.slice(-places)}`;
};

/**
 * An export's rows summed as the totals bar sums them: `all` counts every row, `spend` the completed and pending
 * rows (count, gallons, amount). Rows are the header's columns by name, so a reordered file still reads right.
 */
export interface FileSums {
  all: number;
  spend: Figure;
}

function sumRows(rows: readonly (readonly string[])[]): FileSums {
  const [header, ...data] = rows;
  if (header?.join() !== EXPORT_HEADERS.join())
    throw new Error(`the export's header is not the columns': ${String(header?.join())}`);
  const column = (name: string) => EXPORT_HEADERS.indexOf(name);
  const [status, gallons, amount] = [column("Status"), column("Gallons"), column("Amount")];
  const spend = data.filter((r) => r[status] !== "failed");
  return {
    all: data.length,
    spend: sumFigures(spend.map((r) => ({ count: 1, gallons: r[gallons] ?? "0", amount: r[amount] ?? "0" }))),
  };
}

/** A CSV export's sums (the file is the header and the rows only; a UTF-8 BOM may lead). */
export function csvSums(text: string): FileSums {
  return sumRows(parseCsv(text.startsWith("\uFEFF") ? text.slice(1) : text));
}

/** An XLSX export's sums: its Transactions sheet (numbers are written as numbers: read back to their decimals). */
export async function xlsxSums(bytes: ArrayBuffer): Promise<FileSums> {
  const workbook = await loadXlsx(Buffer.from(bytes));
  const sheet = workbook.getWorksheet("Transactions");
  if (sheet === undefined) throw new Error("the XLSX has no Transactions sheet");
  const rows: string[][] = [];
  sheet.eachRow((r) => {
    const values = (r.values as ExcelJS.CellValue[]).slice(1);
    rows.push(
      EXPORT_HEADERS.map((name, i) => {
        const v = values[i];
        if (typeof v === "number") return name === "Gallons" ? v.toFixed(3) : v.toFixed(2);
        return typeof v === "string" ? v : v === null || v === undefined ? "" : JSON.stringify(v);
      }),
    );
  });
  return sumRows(rows);
}
