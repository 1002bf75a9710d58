import "server-only";

import type ExcelJS from "exceljs";

import { isPlainDecimal, neutralizeCell } from "@/lib/bff/files/cell-safety";
import { csvStringifier, writeRecord } from "@/lib/bff/files/csv-writer";
import { type Production, settle } from "@/lib/bff/files/production";
import type { ExportRun } from "@/lib/bff/files/run";
import { xlsxText } from "@/lib/bff/files/xlsx-cells";
import { addTableSheet, produceWorkbook, workbookWriter } from "@/lib/bff/files/xlsx-writer";
import { formatCardNumber } from "@/lib/format/file-names";
import { localDateOf } from "@/lib/mirror";
import type { Station, Transaction } from "@/lib/model";
import type { JurisdictionFigures, JurisdictionReply } from "@/lib/model/insight-jurisdictions";
import { METRICS } from "@/lib/model/metrics";
import { classifyProduct } from "@/lib/model/product-classes";

/**
 * The jurisdiction report's files (issue 16 item 1). CSV: the header, the summary rows and a total row (what the
 * page's table shows), nothing else, so strict importers read it; what it is goes into its name and, when asked, the
 * About text (`format=txt`, the XLSX's About sheet as `label: value` lines). XLSX: a Summary sheet, a Detail sheet with one line per receipt (streamed: the rows come from the mirror by keyset,
 * with the same back-pressure as the transaction export, lib/bff/files/xlsx-writer) and an About sheet. Every text
 * cell goes through the export's formula-injection defence; money and volumes are plain decimals or numbers.
 */

export interface JurisdictionFileFacts {
  reply: JurisdictionReply;
  customer: string;
  generatedAt: Date;
  /** Station id → catalog entry (the address); empty when the key lacks the locations scope. */
  stations: ReadonlyMap<string, Station>;
  /** Why addresses are blank, when they are; null when the catalog answered. */
  addressNote: string | null;
}

export const SUMMARY_HEADERS = [
  "State",
  "Fuel",
  "Purchases",
  "Gallons",
  "Amount",
  "Average price per gallon",
  "DEF gallons",
  "DEF amount",
  "Previous purchases",
  "Previous gallons",
  "Previous amount",
] as const;

type Cell = string | number | null;

const figureCells = (f: JurisdictionFigures | null): Cell[] =>
  f === null
    ? [null, null, null, null, null, null]
    : [f.purchases, f.gallons, f.amount, f.averagePrice, f.defGallons, f.defAmount];

/** The summary as rows of cells (decimals as the model's strings): one per state × fuel, then the total. */
export function summaryRows(reply: JurisdictionReply): Cell[][] {
  const rows: Cell[][] = reply.report.rows.map((r) => [
    r.state === "" ? "(no state)" : r.state,
    r.fuel,
    ...figureCells(r),
    ...(r.previous === null ? [0, "0.000", "0.00"] : [r.previous.purchases, r.previous.gallons, r.previous.amount]),
  ]);
  const p = reply.previous?.totals ?? null;
  rows.push([
    "Total",
    "all fuel",
    ...figureCells(reply.report.totals),
    ...(p === null ? [null, null, null] : [p.purchases, p.gallons, p.amount]),
  ]);
  // Purchases of DEF alone are in the DEF columns, not the fuel gallons: this line is every completed purchase by its
  // own gallons and amount, what the transactions list totals for the range (status=completed).
  const { defOnly, completed } = reply.report;
  if (defOnly.purchases > 0)
    rows.push([
      "All completed purchases",
      `fuel and ${String(defOnly.purchases)} DEF-only`,
      completed.purchases,
      completed.gallons,
      completed.amount,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  return rows;
}

/** What the file is: range, basis, coverage, as of. Label and value per line (the About sheet, the .txt). */
function aboutLines(facts: JurisdictionFileFacts, detailRows: number | null): [string, string | number][] {
  const { reply } = facts;
  const { report, coverage } = reply;
  const lines: [string, string | number][] = [
    ["Report", "Fuel by jurisdiction (station state × fuel)"],
    ["Customer", facts.customer],
    ["From (purchase-local date)", reply.periods.current.from],
    ["To (purchase-local date)", reply.periods.current.to],
    [
      "Basis",
      `${METRICS[reply.metric].caption} A purchase's local date is the time the station reported, with its own UTC offset; DEF is never in fuel gallons.`,
    ],
    [
      "Covered",
      coverage.covered === null
        ? "nothing yet"
        : `${coverage.covered.from} to ${coverage.covered.to}${coverage.complete ? "" : ` (${coverage.note ?? "partial"})`}`,
    ],
    ["Pending purchases (not in the figures)", report.pending.purchases],
    ["Failed purchases (excluded)", report.failed.purchases],
    ["Data as of (UTC)", coverage.asOf ?? "unknown"],
    ["Generated (UTC)", facts.generatedAt.toISOString()],
    [
      "IFTA",
      "A full IFTA return also needs the miles driven in each jurisdiction, which the Fleet Fuel API does not provide.",
    ],
  ];
  if (detailRows !== null) lines.push(["Detail rows", detailRows]);
  if (facts.addressNote !== null) lines.push(["Station addresses", facts.addressNote]);
  return lines;
}

const csvCell = (value: Cell): string =>
  value === null
    ? ""
    : typeof value === "number"
      ? String(value)
      : isPlainDecimal(value)
        ? value
        : neutralizeCell(value);

/** The About as plain text: one `label: value` line each (CRLF, like the CSV). */
export function aboutText(facts: JurisdictionFileFacts): string {
  return aboutLines(facts, null)
    .map(([label, value]) => `${label}: ${String(value)}\r\n`)
    .join("");
}

/** The CSV: header, summary rows and total; nothing after the data. */
export function produceJurisdictionCsv(run: ExportRun, facts: JurisdictionFileFacts): Production {
  const csv = csvStringifier();
  const work = async (): Promise<void> => {
    await writeRecord(csv, [...SUMMARY_HEADERS], run);
    for (const row of summaryRows(facts.reply)) await writeRecord(csv, row.map(csvCell), run);
    csv.end();
  };
  return { output: csv, outcome: settle(work()), failFast: false };
}

export const DETAIL_HEADERS = [
  "Date (local)",
  "Station",
  "Address",
  "City",
  "State",
  "Product",
  "Fuel class",
  "Gallons",
  "Price per gallon",
  "Amount",
  "DEF gallons",
  "DEF amount",
  "Driver",
  "Truck",
  "Card",
  "Transaction id",
] as const;

const DETAIL_WIDTHS = [12, 30, 34, 18, 6, 12, 10, 10, 15, 11, 11, 11, 22, 10, 13, 38];
const SUMMARY_WIDTHS = [10, 10, 11, 13, 14, 22, 12, 12, 18, 16, 16];

const xlsxCell = (value: Cell): Cell =>
  value === null || typeof value === "number" ? value : isPlainDecimal(value) ? Number(value) : xlsxText(value);

const fuelClassCell = (product: string): string => {
  const { productClass } = classifyProduct(product);
  return productClass === "def" ? "DEF" : productClass;
};

function detailCells(t: Transaction, stations: ReadonlyMap<string, Station>): Cell[] {
  return [
    localDateOf(Date.parse(t.at), t.localOffsetMinutes),
    t.station.name,
    stations.get(t.station.id)?.address ?? "",
    t.station.city,
    t.station.state,
    t.product,
    // The report's class of the product (its one classifier): a DEF purchase's gallons are DEF, not fuel.
    fuelClassCell(t.product),
    t.gallons,
    t.pricePerGallon,
    t.amount,
    t.def?.gallons ?? null,
    t.def?.amount ?? null,
    t.driver.name,
    t.driver.truckId,
    formatCardNumber(t.card.last4),
    t.id,
  ].map(xlsxCell);
}

function sheetOf(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  widths: number[],
  headers: readonly string[],
) {
  const sheet = addTableSheet(
    workbook,
    name,
    widths.map((width) => ({ width })),
  );
  sheet.addRow(headers.map(xlsxText)).commit();
  return sheet;
}

/** The workbook: Summary (the reply), Detail (the run's rows, streamed), About. */
export function produceJurisdictionXlsx(run: ExportRun, facts: JurisdictionFileFacts): Production {
  return produceWorkbook(run, async ({ output, stopped, streamSheet }) => {
    // No styles: with them exceljs works out each cell's style on commit, 5 of 12 CPU seconds for a quarter of
    // 250,000 receipt lines (goal ≤ 10 s); the sheets keep their frozen header rows and column widths.
    const workbook = workbookWriter(output, facts.generatedAt, { useStyles: false });
    // Sheets are zipped in the order added: Summary is whole before the Detail streams, About (the count) last.
    const summary = sheetOf(workbook, "Summary", SUMMARY_WIDTHS, SUMMARY_HEADERS);
    for (const row of summaryRows(facts.reply)) summary.addRow(row.map(xlsxCell)).commit();
    summary.commit();
    const detail = sheetOf(workbook, "Detail", DETAIL_WIDTHS, DETAIL_HEADERS);
    const waitForRoomAfterRow = streamSheet(workbook, detail);
    for (let t = await run.next(); t !== null; t = await run.next()) {
      detail.addRow(detailCells(t, facts.stations)).commit();
      run.rowWritten();
      await waitForRoomAfterRow();
    }
    if (run.isStopped()) return;
    detail.commit();
    const about = workbook.addWorksheet("About");
    about.columns = [{ width: 36 }, { width: 90 }];
    for (const [label, value] of aboutLines(facts, run.rowsDone)) {
      about.addRow([xlsxText(label), typeof value === "number" ? value : xlsxText(value)]).commit();
    }
    await Promise.race([workbook.commit(), stopped]);
  });
}
