import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import { getCatalog } from "@/lib/bff/stations/catalog";
import { addDecimals } from "@/lib/model/decimal-math";
import type { JurisdictionReply } from "@/lib/model/insight-jurisdictions";
import { METRICS } from "@/lib/model/metrics";
import { mirrorServeStackFor } from "@/test/mirror-serve-stack";

import { readStrictCsv } from "../files/fixtures/strict-csv";
import { runWithQuery } from "../http/operation";
import { operationContextForTest } from "../http/test-context";
import { exportTransactionsFile } from "../transactions/export-transactions";
import { exportJurisdictionReport } from "./jurisdiction-export";
import { DETAIL_HEADERS, SUMMARY_HEADERS, summaryRows } from "./jurisdiction-files";
import { getJurisdictionReport } from "./jurisdiction-report";

// GET /api/reports/jurisdictions/export over a real mirror synced from the real sandbox (both profiles): the CSV's
// rows and the XLSX's Summary equal the report's reply; the Detail sheet holds exactly the completed purchases behind
// it (count and sums tie out), with the station address from the catalog and the card as every file writes it; the
// About sheet (and the .txt) says range, basis, as of; the CSV is the header and rows only.

const cellText = (v: ExcelJS.CellValue): string =>
  typeof v === "string" || typeof v === "number" ? String(v) : v === null || v === undefined ? "" : JSON.stringify(v);
/** The sheet of that name (the test fails when the workbook lacks it). */
function sheetOf(workbook: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const sheet = workbook.getWorksheet(name);
  if (sheet === undefined) throw new Error(`no ${name} sheet`);
  return sheet;
}

describe.each(["primary", "alternative"] as const)("jurisdiction report export (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  const query = { quarter: "2026-Q2" };

  it("CSV: the header and the reply's rows and total only; the name says range, basis and as-of", async () => {
    const ctx = stack().mirrorCtx();
    const reply = await runWithQuery(getJurisdictionReport, ctx, query);
    const response = await runWithQuery(exportJurisdictionReport, ctx, { ...query, format: "csv" });
    expect(response.headers.get("content-type")).toContain("text/csv");
    const asOf = `${(reply.coverage.asOf ?? "").slice(0, 19).replace(/:/g, "")}Z`;
    expect(response.headers.get("content-disposition")).toContain(
      `_2026-04-01_to_2026-06-30_local-dates_completed_data-as-of-${asOf}_`,
    );
    const text = await response.text();
    // A strict importer reads every record: no # lines after the data (issue 25 item 6).
    const { header, rows } = readStrictCsv(text);
    expect(header).toEqual([...SUMMARY_HEADERS]);
    const expected = summaryRows(reply).map((row) => row.map((c) => (c === null ? "" : String(c))));
    expect(rows).toEqual(expected);
    expect(text).not.toContain("\r\n#");
  });

  it("txt: the About the CSV no longer carries, as label: value lines", async () => {
    const ctx = stack().mirrorCtx();
    const reply = await runWithQuery(getJurisdictionReport, ctx, query);
    const response = await runWithQuery(exportJurisdictionReport, ctx, { ...query, format: "txt" });
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(response.headers.get("content-disposition")).toContain("_about.txt");
    const lines = (await response.text()).split("\r\n");
    expect(lines).toContain("From (purchase-local date): 2026-04-01");
    expect(lines).toContain(`Data as of (UTC): ${reply.coverage.asOf ?? ""}`);
    // The basis is the report's metric, in the words the page shows (lib/model/metrics).
    expect(lines.find((l) => l.startsWith("Basis: "))).toContain(METRICS["tax.completed.local-date"].caption);
  });

  it("XLSX: Summary equals the reply; Detail holds every completed purchase behind it with the address; About", async () => {
    const ctx = stack().mirrorCtx();
    const reply = await runWithQuery(getJurisdictionReport, ctx, query);
    const response = await runWithQuery(exportJurisdictionReport, ctx, { ...query, format: "xlsx" });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Summary", "Detail", "About"]);
    const values = (sheet: ExcelJS.Worksheet) => {
      const rows: string[][] = [];
      // Array.from, not map: a blank cell inside a row (a row without fuel has no average price) is a hole in `values`.
      sheet.eachRow((row) => rows.push(Array.from((row.values as ExcelJS.CellValue[]).slice(1), cellText)));
      return rows;
    };
    const summary = values(sheetOf(workbook, "Summary"));
    expect(summary[0]).toEqual([...SUMMARY_HEADERS]);
    // Numbers in the sheet, decimals in the reply: compare as numbers.
    const asNumbers = (rows: (string | number | null)[][]) =>
      rows.map((r) =>
        r.map((c) => (c === null || c === "" ? "" : Number.isNaN(Number(c)) ? String(c) : String(Number(c)))),
      );
    expect(asNumbers(summary.slice(1))).toEqual(asNumbers(summaryRows(reply)));

    const detail = values(sheetOf(workbook, "Detail"));
    expect(detail[0]).toEqual([...DETAIL_HEADERS]);
    const body = detail.slice(1);
    expect(body).toHaveLength(reply.report.totals.purchases);
    const col = (name: (typeof DETAIL_HEADERS)[number]) => DETAIL_HEADERS.indexOf(name);
    const sum = (name: (typeof DETAIL_HEADERS)[number], digits: number) =>
      addDecimals(
        body.map((r) => Number(r[col(name)]).toFixed(digits)),
        digits,
      );
    // Every completed purchase by its own gallons and amount (the list's totals); the fuel class tells DEF apart.
    expect(sum("Gallons", 3)).toBe(reply.report.completed.gallons);
    expect(sum("Amount", 2)).toBe(reply.report.completed.amount);
    expect(body.every((r) => ["diesel", "unleaded", "other", "DEF"].includes(r[col("Fuel class")] ?? ""))).toBe(true);
    const fuel = body.filter((r) => r[col("Fuel class")] !== "DEF");
    expect(
      addDecimals(
        fuel.map((r) => Number(r[col("Gallons")]).toFixed(3)),
        3,
      ),
    ).toBe(reply.report.totals.gallons);
    expect(
      body.every(
        (r) => (r[col("Date (local)")] ?? "") >= "2026-04-01" && (r[col("Date (local)")] ?? "") <= "2026-06-30",
      ),
    ).toBe(true);
    // Card numbers written one way in every file: as the transaction export writes them, leading zeros kept.
    const exported = await runWithQuery(exportTransactionsFile, ctx, { status: "completed", format: "csv" });
    const { header, rows } = readStrictCsv(await exported.text());
    const cardOf = new Map(rows.map((r) => [r[header.indexOf("Id")], r[header.indexOf("Card")]]));
    expect(body.every((r) => r[col("Card")] === cardOf.get(r[col("Transaction id")]))).toBe(true);
    expect(body.every((r) => /^•••• \d{4}$/.test(r[col("Card")] ?? ""))).toBe(true);
    const catalog = await getCatalog(stack().sb.keys["demo-full"], ctx.key, null);
    const first = body[0] ?? [];
    const station = catalog.find((s) => s.name === first[col("Station")] && s.city === first[col("City")]);
    expect(first[col("Address")]).toBe(station?.address);

    const about = values(sheetOf(workbook, "About"));
    const facts = new Map(about.map(([k, v]) => [k, v]));
    expect(facts.get("From (purchase-local date)")).toBe("2026-04-01");
    expect(facts.get("Detail rows")).toBe(String(reply.report.totals.purchases));
    expect(facts.get("Data as of (UTC)")).toBe(reply.coverage.asOf);
    expect(facts.get("Basis")).toContain(METRICS[reply.metric].caption);
  });

  it("XLSX without the locations scope: addresses blank, and the About sheet says why", async () => {
    const { sb, mirror } = stack();
    const created = JSON.parse(
      await sb.cli(
        "keys",
        "create",
        "--customer",
        "PFL",
        "--scopes",
        "account,transactions",
        "--label",
        "no-locations",
      ),
    ) as { key_id: string; secret: string };
    const ctx = operationContextForTest(
      { keyId: created.key_id, secret: created.secret },
      { mirror: () => Promise.resolve(mirror.access) },
    );
    const response = await runWithQuery(exportJurisdictionReport, ctx, { ...query, format: "xlsx" });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const address = DETAIL_HEADERS.indexOf("Address") + 1;
    const detail = sheetOf(workbook, "Detail");
    expect(detail.rowCount).toBeGreaterThan(1);
    expect(cellText(detail.getRow(2).getCell(address).value)).toBe("");
    const about = new Map<string, string>();
    sheetOf(workbook, "About").eachRow((row) => {
      about.set(cellText(row.getCell(1).value), cellText(row.getCell(2).value));
    });
    expect(about.get("Station addresses")).toContain("locations scope");
  });

  it("refuses a bad format with a 400 naming it", async () => {
    const error = await runWithQuery(exportJurisdictionReport, stack().mirrorCtx(), { ...query, format: "pdf" }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining("format") as unknown });
  });
});

// Review 16 #2 (pure): with DEF bought alone, the files carry every completed purchase by its own gallons and amount.
describe("the jurisdiction files' summary rows", () => {
  it("add an all-completed line after the Total when DEF was bought alone, and none otherwise", () => {
    const none = { purchases: 0, gallons: "0.000", amount: "0.00" };
    const totals = { purchases: 2, gallons: "112.000", amount: "442.00", averagePrice: "3.946" };
    const reply = {
      periods: {
        current: { from: "2026-01-01", to: "2026-03-31" },
        previous: { from: "2025-10-01", to: "2025-12-31" },
      },
      previous: null,
      report: {
        rows: [],
        totals: { ...totals, defGallons: "2.500", defAmount: "9.00" },
        pending: none,
        failed: { purchases: 0 },
        quality: { noState: 0, unknownProducts: [], pendingAtEnd: 0 },
        defOnly: { purchases: 1, gallons: "2.500", amount: "9.00" },
        completed: { purchases: 2, gallons: "114.500", amount: "451.00" },
      },
    } as unknown as JurisdictionReply; // only what summaryRows reads
    expect(summaryRows(reply).map((r) => r.slice(0, 5))).toEqual([
      ["Total", "all fuel", 2, "112.000", "442.00"],
      ["All completed purchases", "fuel and 1 DEF-only", 2, "114.500", "451.00"],
    ]);
    reply.report.defOnly = none;
    expect(summaryRows(reply).map((r) => r[0])).toEqual(["Total"]);
  });
});
