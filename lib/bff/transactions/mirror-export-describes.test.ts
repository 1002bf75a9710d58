import type ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { mirrorServeStackFor } from "@/test/mirror-serve-stack";

import { readStrictCsv } from "../files/fixtures/strict-csv";
import { loadXlsx } from "../files/fixtures/xlsx";
import { runWithQuery } from "../http/operation";
import { exportTransactionsFile } from "./export-transactions";

// Issue 25 item 6, "Files that misdescribe themselves", over a real mirror synced from the real sandbox (both
// profiles): the file name and the XLSX About sheet state every filter (the mirror-only ones too), the sort, the date
// basis and the "data as of" instant; the CSV is the header and the rows only, as a strict importer reads it.

const aboutOf = (workbook: ExcelJS.Workbook): Map<string, string> => {
  const facts = new Map<string, string>();
  workbook.getWorksheet("About")?.eachRow((row) => facts.set(row.getCell(1).text, row.getCell(2).text));
  return facts;
};
const fileName = (reply: Response) => /filename="([^"]+)"/.exec(reply.headers.get("content-disposition") ?? "")?.[1];
const stampOf = (iso: string) => `${iso.slice(0, 19).replace(/:/g, "")}Z`;

describe.each(["primary", "alternative"] as const)("exports that describe themselves (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  let sample: Transaction;
  let asOf: string;
  beforeAll(() => {
    const found = stack().all.find((t) => t.status === "completed" && t.station.state !== "");
    if (found === undefined) throw new Error("no completed purchase with a state in the sandbox");
    sample = found;
    asOf = new Date(stack().mirror.access.state.lastHeadSyncMs ?? 0).toISOString();
  });

  it("driver + state + product, sorted by amount: the name and the About sheet say so, and the data-as-of", async () => {
    const q = {
      driver: sample.driver.id,
      state: sample.station.state,
      product: sample.product,
      sort: "amount",
      dir: "desc",
      format: "xlsx",
    };
    const reply = await runWithQuery(exportTransactionsFile, stack().mirrorCtx(), q);
    const name = fileName(reply) ?? "";
    const product = sample.product.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    for (const part of [
      `_driver-${sample.driver.id}_`,
      `_state-${sample.station.state}_`,
      `_product-${product}_`,
      "_by-amount-desc_",
      `_data-as-of-${stampOf(asOf)}_`,
    ])
      expect(name).toContain(part);
    const about = aboutOf(await loadXlsx(Buffer.from(await reply.arrayBuffer())));
    expect(about.get("Driver")).toBe(sample.driver.id);
    expect(about.get("State")).toBe(sample.station.state);
    expect(about.get("Product")).toBe(sample.product.toLowerCase());
    expect(about.get("Truck")).toBe("any");
    expect(about.get("Sort")).toBe("By amount, highest first");
    expect(about.get("Data as of (UTC)")).toBe(asOf);
    expect(about.get("Note")).not.toContain("Newest first");
  });

  it("an export opened from a jurisdiction link states the local-date basis its rows were chosen by", async () => {
    const q = {
      from: "2026-04-01",
      to: "2026-06-30",
      dates: "local",
      status: "completed",
      state: sample.station.state,
      format: "xlsx",
    };
    const reply = await runWithQuery(exportTransactionsFile, stack().mirrorCtx(), q);
    expect(fileName(reply)).toContain("_2026-04-01_to_2026-06-30_local-dates_completed_");
    const about = aboutOf(await loadXlsx(Buffer.from(await reply.arrayBuffer())));
    expect(about.get("From (purchase-local date)")).toBe("2026-04-01");
    expect(about.get("To (purchase-local date)")).toBe("2026-06-30");
    expect(about.has("From (UTC day)")).toBe(false);
    expect(about.get("Date basis")).toContain("own local date");
  });

  it("the CSV holds the header and the rows only: a strict importer reads every record, no # line", async () => {
    const q = { from: "2026-05-01", to: "2026-05-30", tz: "America/Denver", card: sample.card.last4, format: "csv" };
    const reply = await runWithQuery(exportTransactionsFile, stack().mirrorCtx(), q);
    const name = fileName(reply) ?? "";
    expect(name).toContain("_2026-05-01_to_2026-05-30_America-Denver-days_");
    expect(name).toContain(`_card-${sample.card.last4}_newest-first_data-as-of-${stampOf(asOf)}_`);
    const text = await reply.text();
    const { header, rows } = readStrictCsv(text);
    expect(header[0]).toBe("Date (UTC)");
    expect(rows).toHaveLength(Number(reply.headers.get("X-Export-Total")));
    expect(text.split("\r\n").some((line) => line.startsWith("#"))).toBe(false);
    const card = header.indexOf("Card");
    expect(rows.every((r) => r[card] === `•••• ${sample.card.last4}`)).toBe(true);
  });
});
