// The export journey: with the table filtered to failed transactions, "Export CSV" downloads a file whose rows equal
// the BFF's filtered total and are all failed; "Export Excel" downloads an .xlsx.
import { readFile } from "node:fs/promises";

import type { Download, Page } from "@playwright/test";

import {
  bffTotal,
  expect,
  expectLoaded,
  liveTest as test,
  pageAlerts,
  resetSandboxFaults,
  setSandboxFaults,
} from "./fixtures";

// On the app without a mirror (fixtures.ts liveTest): these exports are walked from the upstream page by page (the
// mirror's exports: e2e/mirror.spec.ts).

async function openFailedList(page: Page): Promise<void> {
  await page.goto("/transactions?status=failed");
  await expect(page.getByRole("heading", { name: "Transactions", level: 1 })).toBeVisible();
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  await expectLoaded(page);
}

/** RFC 4180 records: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (quoted) {
      if (char === '"' && text.charAt(i + 1) === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\r" && text.charAt(i + 1) === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i += 1;
    } else field += char;
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

async function downloadBytes(download: Download): Promise<Buffer> {
  const path = await download.path();
  return readFile(path);
}

test("Export CSV downloads exactly the failed transactions", async ({ loggedInPage: page }) => {
  const total = await bffTotal(page, "&status=failed");
  expect(total).toBeGreaterThan(0);
  await openFailedList(page);

  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);

  const bytes = await downloadBytes(download);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString("utf8");
  expect(text).toContain("\r\n");
  const records = parseCsv(text);
  // Line 1 is the column header (import tools expect it); the file name says what the file holds.
  const [header, ...data] = records;
  expect(download.suggestedFilename()).toMatch(new RegExp(`_failed_.*_${String(total)}-rows?\\.csv$`));
  expect(header).toBeDefined();
  const statusIndex = (header ?? []).indexOf("Status");
  expect(statusIndex).toBeGreaterThanOrEqual(0);
  expect(data).toHaveLength(total);
  expect(new Set(data.map((row) => row[statusIndex]))).toEqual(new Set(["failed"]));

  await expect(page.getByText(`Exported ${total.toLocaleString("en-US")} row`)).toBeVisible();
  await expect(pageAlerts(page)).toHaveCount(0);
});

test("Export Excel downloads an .xlsx file", async ({ loggedInPage: page }) => {
  await openFailedList(page);
  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export Excel" }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const bytes = await downloadBytes(download);
  expect(bytes.length).toBeGreaterThan(0);
  // An .xlsx is a zip archive.
  expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");
});

test("the export's progress is never asked for too early: no poll answers 404, even when page 1 is slow", async ({
  loggedInPage: page,
  profile,
}) => {
  test.setTimeout(60_000);
  await openFailedList(page);
  const progressStatuses: number[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/api/transactions/export/progress")
      progressStatuses.push(response.status());
  });
  // A slow upstream (a real sandbox fault): the export's page 1 takes longer than the page's poll interval, which
  // is when a poll used to arrive before the BFF had registered the export.
  await setSandboxFaults(profile, { latencyMs: 1_500 });
  try {
    const downloadPromise = page.waitForEvent("download", { timeout: 50_000 });
    await page.getByRole("button", { name: "Export CSV" }).click();
    await downloadPromise;
  } finally {
    await resetSandboxFaults(profile);
  }
  await expect(page.getByText(/Exported [\d,]+ rows?/)).toBeVisible();
  expect(progressStatuses.filter((status) => status !== 200)).toEqual([]);
});

test.describe("while an export runs", () => {
  test.afterEach(async ({ profile }) => {
    await resetSandboxFaults(profile);
  });

  for (const width of [1280, 375]) {
    test(`the Export buttons stay where they are when an export starts and ends (${String(width)} px)`, async ({
      loggedInPage: page,
      profile,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await openFailedList(page);
      const buttons = [
        page.getByRole("button", { name: "Export CSV" }),
        page.getByRole("button", { name: "Export Excel" }),
      ];
      // Where they are on the page, not in the viewport: focus moving to Cancel may scroll the page a little to
      // show it (at 375 px it sits at the bottom edge), which is the browser's doing, not a shift of the layout.
      const boxes = async () => {
        const scrollY = await page.evaluate(() => window.scrollY);
        return Promise.all(
          buttons.map(async (button) => {
            const box = await button.boundingBox();
            return box === null ? null : { ...box, y: box.y + scrollY };
          }),
        );
      };
      const before = await boxes();
      // A slow upstream keeps the export's progress on screen long enough to measure.
      await setSandboxFaults(profile, { latencyMs: 700 });
      const downloadPromise = page.waitForEvent("download");
      await buttons[0]?.click();
      await expect(page.getByTestId("export-progress")).toBeVisible();
      const during = await boxes();
      await downloadPromise;
      await expect(page.getByText(/^Exported /)).toBeVisible();
      const after = await boxes();
      expect(during).toEqual(before);
      expect(after).toEqual(before);
    });
  }
});
