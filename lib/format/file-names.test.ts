import { describe, expect, it } from "vitest";

import type { ExportFormat, TransactionFilter } from "@/lib/model";

import {
  contentDisposition,
  exportFilename,
  type ExportNameFacts,
  formatCardNumber,
  jurisdictionFilename,
} from "./file-names";

const META: ExportNameFacts = {
  filters: {},
  generatedAt: new Date("2026-11-20T10:11:12.345Z"),
  customer: { name: "Prairie Freight Lines", code: "PFL" },
  expectedRows: 250,
};

describe("exportFilename", () => {
  const base = { generatedAt: META.generatedAt, customer: META.customer, expectedRows: META.expectedRows };
  const name = (format: ExportFormat, filters: TransactionFilter, customer = base.customer): string =>
    exportFilename(format, { ...base, customer, filters });

  it("names the customer, the filters, the time and the row count (the CSV's self-description)", () => {
    expect(name("csv", { from: "2026-05-01", to: "2026-05-31", status: "completed", search: "Smith" })).toBe(
      "fleet-fuel-transactions_PFL_2026-05-01_to_2026-05-31_UTC-days_completed_search-smith_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    expect(name("xlsx", {})).toBe(
      "fleet-fuel-transactions_PFL_all-dates_newest-first_2026-11-20T101112Z_250-rows.xlsx",
    );
    expect(name("csv", { from: "2026-05-01" })).toBe(
      "fleet-fuel-transactions_PFL_from_2026-05-01_UTC-days_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    expect(name("csv", { to: "2026-05-31", status: "failed" })).toBe(
      "fleet-fuel-transactions_PFL_to_2026-05-31_UTC-days_failed_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    // The time is UTC, whatever the server's time zone; one row is "1-row".
    expect(
      exportFilename("csv", {
        ...base,
        generatedAt: new Date("2026-11-20T23:59:59-05:00"),
        expectedRows: 1,
        filters: {},
      }),
    ).toBe("fleet-fuel-transactions_PFL_all-dates_newest-first_2026-11-21T045959Z_1-row.csv");
  });

  it("slugifies the search: accents dropped, the rest dashed, at most 40 characters", () => {
    expect(name("csv", { search: "Crème Brûlée / 東京 ../../etc" })).toBe(
      "fleet-fuel-transactions_PFL_all-dates_search-creme-brulee-etc_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    expect(name("csv", { search: "東京" })).toBe(
      "fleet-fuel-transactions_PFL_all-dates_search_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    const long = name("csv", { search: "a".repeat(30) + " " + "b".repeat(60) });
    const slug = /_search-([^_]+)_/.exec(long)?.[1] ?? "";
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toBe(`${"a".repeat(30)}-${"b".repeat(9)}`);
  });

  it("uses a slug of the name when there is no customer code, and keeps to [A-Za-z0-9._-]", () => {
    expect(name("csv", {}, { name: "Coastal Haulers, Inc.", code: null })).toBe(
      "fleet-fuel-transactions_coastal-haulers-inc_all-dates_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    expect(name("csv", {}, { name: "東京", code: null })).toBe(
      "fleet-fuel-transactions_all-dates_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    const odd = name("xlsx", { search: '"; rm -rf / \r\n' }, { name: "x", code: 'P/F L"' });
    expect(odd).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(odd).toBe(
      "fleet-fuel-transactions_P-F-L_all-dates_search-rm-rf_newest-first_2026-11-20T101112Z_250-rows.xlsx",
    );
  });
});

describe("exportFilename's zone", () => {
  const base = { ...META, filters: { from: "2026-05-01", to: "2026-05-31" } };
  const coverage = (timeZone: string) => ({ timeZone, from: null, to: null });

  it("names the zone of the days (UTC too), with / as -, or local-dates for each purchase's own date", () => {
    expect(exportFilename("csv", { ...base, dateFilter: coverage("America/Los_Angeles") })).toBe(
      "fleet-fuel-transactions_PFL_2026-05-01_to_2026-05-31_America-Los_Angeles-days_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    expect(exportFilename("csv", { ...base, dateFilter: coverage("UTC") })).toBe(
      "fleet-fuel-transactions_PFL_2026-05-01_to_2026-05-31_UTC-days_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    expect(exportFilename("csv", { ...base, dateFilter: null })).toBe(
      "fleet-fuel-transactions_PFL_2026-05-01_to_2026-05-31_UTC-days_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
    expect(exportFilename("csv", { ...base, dateFilter: coverage("UTC"), dateBasis: "local" })).toBe(
      "fleet-fuel-transactions_PFL_2026-05-01_to_2026-05-31_local-dates_newest-first_2026-11-20T101112Z_250-rows.csv",
    );
  });
});

// Issue 25 item 6: driver + state + product filters sorted by amount were named `…_all-dates_…`, the filters absent.
describe("exportFilename's mirror-only filters, sort and data-as-of", () => {
  it("names every mirror-only filter, the sort and the mirror's data-as-of instant", () => {
    const name = exportFilename("xlsx", {
      ...META,
      narrowing: {
        driver: "D-1042",
        truck: "T 17",
        card: "0042",
        station: "st_000123",
        state: "TX",
        product: "ULSD #2",
        amountMin: "10",
        amountMax: "50.5",
        gallonsMin: "20",
      },
      sort: { column: "amount", direction: "desc" },
      dataAsOf: new Date("2026-11-20T10:00:00.000Z"),
    });
    expect(name).toBe(
      "fleet-fuel-transactions_PFL_all-dates_driver-D-1042_truck-T-17_card-0042_station-st-000123_state-TX_product-ulsd-2_amount-10-to-50.5_gallons-from-20_by-amount-desc_data-as-of-2026-11-20T100000Z_2026-11-20T101112Z_250-rows.xlsx",
    );
  });

  it("names the formatted card once for every file", () => {
    expect(formatCardNumber("0042")).toBe("•••• 0042");
  });
});

describe("jurisdictionFilename", () => {
  it("says range, the local-date basis, completed, data-as-of and time; .txt is the About", () => {
    const facts = {
      customer: META.customer,
      from: "2026-04-01",
      to: "2026-06-30",
      dataAsOf: new Date("2026-07-02T08:00:00Z"),
      generatedAt: META.generatedAt,
    };
    expect(jurisdictionFilename("csv", facts)).toBe(
      "fleet-fuel-jurisdictions_PFL_2026-04-01_to_2026-06-30_local-dates_completed_data-as-of-2026-07-02T080000Z_2026-11-20T101112Z.csv",
    );
    expect(jurisdictionFilename("txt", { ...facts, dataAsOf: null })).toBe(
      "fleet-fuel-jurisdictions_PFL_2026-04-01_to_2026-06-30_local-dates_completed_2026-11-20T101112Z_about.txt",
    );
  });
});

describe("contentDisposition", () => {
  it("gives an ASCII filename and the UTF-8 one", () => {
    expect(contentDisposition("fleet-fuel-transactions_PFL_2026-11-20.csv")).toBe(
      `attachment; filename="fleet-fuel-transactions_PFL_2026-11-20.csv"; filename*=UTF-8''fleet-fuel-transactions_PFL_2026-11-20.csv`,
    );
    const header = contentDisposition("Überweisung (Mai) 東京's.csv");
    expect(header).toBe(
      `attachment; filename="Uberweisung (Mai) __'s.csv"; filename*=UTF-8''%C3%9Cberweisung%20%28Mai%29%20%E6%9D%B1%E4%BA%AC%27s.csv`,
    );
    const star = /filename\*=UTF-8''(.*)$/.exec(header)?.[1] ?? "";
    expect(decodeURIComponent(star)).toBe("Überweisung (Mai) 東京's.csv");
    expect(star).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/); // RFC 5987 attr-char or %XX only
  });

  it("cannot break out of the quotes or the header line", () => {
    const header = contentDisposition('a"b\\c\r\nSet-Cookie: x=1.csv');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith(`attachment; filename="a_b_cSet-Cookie: x=1.csv"; `)).toBe(true);
    expect(() => new Headers({ "content-disposition": header })).not.toThrow();
    expect(contentDisposition("")).toBe(`attachment; filename="export"; filename*=UTF-8''export`);
  });
});
