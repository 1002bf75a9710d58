import "server-only";

import type ExcelJS from "exceljs";

import { parseCsv } from "../files/fixtures/csv";
import { loadXlsx } from "../files/fixtures/xlsx";
import { runWithQuery } from "../http/operation";
import { exportJurisdictionReport } from "../insights/jurisdiction-export";
import { DETAIL_HEADERS, SUMMARY_HEADERS } from "../insights/jurisdiction-files";
import { getJurisdictionReport } from "../insights/jurisdiction-report";
import { type Figure, type Pair, sumFigures } from "./figures";
import { countOnly, type TieOutCase, type TieOutStack } from "./sources";

/**
 * The jurisdiction report's files against the report (tests only). Compared, and why they must agree:
 *
 * - **The summary (CSV, and the XLSX's Summary sheet)**: a spreadsheet user adds up a column and reads the Total line
 *   under it, so each state × fuel line's purchases, gallons and amount summed = the Total line, and so do the
 *   "Previous" columns (the previous period's totals, on the same state × fuel lines).
 * - **The XLSX's Detail sheet**: one line per completed purchase of the report, so its lines = the report's purchases.
 */

const figureAt = (row: readonly string[], at: { count: number; gallons: number; amount: number }): Figure => ({
  count: Number(row[at.count] ?? "0"),
  gallons: row[at.gallons] === "" ? "0" : (row[at.gallons] ?? "0"),
  amount: row[at.amount] === "" ? "0" : (row[at.amount] ?? "0"),
});

const columns = (names: readonly string[], prefix: "" | "Previous ") => {
  const at = (name: string) => names.indexOf(prefix === "" ? name : `${prefix}${name.toLowerCase()}`);
  return { count: at("Purchases"), gallons: at("Gallons"), amount: at("Amount") };
};

/** The summary's lines above the Total summed, and the Total line, for the current and the previous columns. */
function summaryPairs(source: string, rows: readonly (readonly string[])[]): Pair[] {
  const [header, ...lines] = rows;
  if (header?.join() !== SUMMARY_HEADERS.join()) throw new Error(`${source}: not the summary's header`);
  const totalAt = lines.findIndex((r) => r[0] === "Total");
  const total = lines[totalAt];
  if (total === undefined) throw new Error(`${source}: no Total line`);
  const above = lines.slice(0, totalAt);
  return (["", "Previous "] as const).map((prefix) => {
    const at = columns(SUMMARY_HEADERS, prefix);
    return {
      why: `the jurisdiction summary's ${prefix === "" ? "current" : "previous"} columns`,
      left: {
        source: `${source}: the state × fuel lines summed`,
        figure: sumFigures(above.map((r) => figureAt(r, at))),
      },
      right: { source: `${source}: the Total line`, figure: figureAt(total, at) },
    };
  });
}

const cellText = (v: ExcelJS.CellValue): string =>
  typeof v === "number"
    ? String(v)
    : typeof v === "string"
      ? v
      : v === null || v === undefined
        ? ""
        : JSON.stringify(v);

function sheetRows(workbook: ExcelJS.Workbook, name: string, width: number): string[][] {
  const sheet = workbook.getWorksheet(name);
  if (sheet === undefined) throw new Error(`the report's XLSX has no ${name} sheet`);
  const rows: string[][] = [];
  sheet.eachRow((r) => {
    const values = (r.values as ExcelJS.CellValue[]).slice(1);
    rows.push(Array.from({ length: width }, (_, i) => cellText(values[i])));
  });
  return rows;
}

export async function jurisdictionFilePairs(stack: TieOutStack, c: TieOutCase): Promise<Pair[]> {
  const range = { from: c.from, to: c.to };
  const { report } = await runWithQuery(getJurisdictionReport, stack.ctx(), range);
  const csv = await runWithQuery(exportJurisdictionReport, stack.ctx(), { ...range, format: "csv" });
  const xlsx = await runWithQuery(exportJurisdictionReport, stack.ctx(), { ...range, format: "xlsx" });
  const text = await csv.text();
  const workbook = await loadXlsx(Buffer.from(await xlsx.arrayBuffer()));
  const detail = sheetRows(workbook, "Detail", DETAIL_HEADERS.length).slice(1);
  return [
    ...summaryPairs("the report's CSV", parseCsv(text.startsWith("\uFEFF") ? text.slice(1) : text)),
    ...summaryPairs("the report's XLSX", sheetRows(workbook, "Summary", SUMMARY_HEADERS.length)),
    {
      why: "completed purchases on purchase-local dates",
      left: { source: "the report's XLSX Detail lines", figure: countOnly(detail.length) },
      right: { source: "the jurisdiction report's purchases", figure: countOnly(report.totals.purchases) },
    },
  ];
}
