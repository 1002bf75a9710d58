/**
 * The pages part's filter figure: the time from a status-filter change on /transactions to the new rows in the DOM
 * after the BFF's answer (issue 5).
 */
import type { Locator, Page } from "@playwright/test";

import { waitSettled } from "../lib/browser";
import type { BenchContext } from "../lib/context";
import { median, percentile } from "../lib/report";
import { withTimeLimit } from "../lib/time-limit";

const FILTER_GOAL_MS = 150;
export const RESPONSE_TIMEOUT_MS = 10_000;
const STATUSES = ["completed", "pending", "failed", ""] as const;
type Status = (typeof STATUSES)[number];

declare global {
  interface Window {
    __ffdMutations?: number[];
  }
}

/**
 * Time from the BFF's answer to a status-filter change (the fetch's responseEnd in resource timing) to the first DOM
 * change of the table after it (a MutationObserver), over distinct filter combinations so each one really fetches.
 * A measurement that breaks is reported as a figure that could not be taken; the part goes on.
 */
export async function measureFilterToRows(ctx: BenchContext, page: Page, ranges: readonly string[]): Promise<void> {
  try {
    const { samples, skipped } = await sampleFilterChanges(page, ranges);
    addFilterFigures(ctx, ranges, samples, skipped);
  } catch (error) {
    ctx.notMeasured({
      part: "pages",
      name: "filter change → new rows",
      unit: "ms",
      goal: { op: "<=", target: FILTER_GOAL_MS },
      reason: `the measurement broke: ${(error instanceof Error ? error.message : String(error)).split("\n")[0] ?? ""}`,
      note: "",
    });
  }
}

async function sampleFilterChanges(page: Page, ranges: readonly string[]) {
  await page.goto("/transactions");
  await waitSettled(page);
  const filters = page.getByRole("search", { name: "Filter transactions" });
  const statusSelect = filters.getByLabel("Status", { exact: true });
  const rangeSelect = filters.getByLabel("Date range", { exact: true });
  await page.evaluate(() => {
    const target = document.querySelector("table")?.closest("[aria-busy]") ?? document.body;
    window.__ffdMutations = [];
    new MutationObserver(() => window.__ffdMutations?.push(performance.now())).observe(target, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  const samples: number[] = [];
  const skipped: string[] = [];
  let current = "";
  // A combination already shown is in the page's query cache and would not fetch: only new ones are measured.
  const seen = new Set(["all|"]);
  for (const range of ranges) {
    if (range !== "all") {
      await rangeSelect.selectOption(range);
      await waitSettled(page);
      seen.add(`${range}|${current}`);
    }
    for (const status of STATUSES) {
      if (seen.has(`${range}|${status}`)) continue;
      seen.add(`${range}|${status}`);
      const sample = await sampleStatusChange(page, statusSelect, status);
      current = status;
      // Seen in the full run: after a date-range change some status changes fetch nothing we can match; counted, not fatal.
      if (sample === "no response") skipped.push(`${range}/${status || "all"}`);
      else if (sample !== null) samples.push(sample);
    }
  }
  return { samples, skipped };
}

/** One status change: ms from the matching response's end to the table's next mutation (null: no mutation after it). */
async function sampleStatusChange(
  page: Page,
  statusSelect: Locator,
  status: Status,
): Promise<number | null | "no response"> {
  await page.evaluate(() => {
    performance.clearResourceTimings();
    window.__ffdMutations = [];
  });
  const responded = page.waitForResponse(
    (r) => {
      const url = new URL(r.url());
      return url.pathname === "/api/transactions" && (url.searchParams.get("status") ?? "") === status;
    },
    { timeout: RESPONSE_TIMEOUT_MS },
  );
  // Awaited below; caught here too so that a failure before then is not an unhandled rejection.
  responded.catch(() => undefined);
  await statusSelect.selectOption(status);
  const response = await responded.catch(() => null);
  if (response === null) return "no response";
  await withTimeLimit(
    response.finished(),
    RESPONSE_TIMEOUT_MS,
    `the /api/transactions response for status "${status}"`,
  );
  await waitSettled(page);
  return page.evaluate((url) => {
    const entry = performance.getEntriesByName(url).at(-1) as PerformanceResourceTiming | undefined;
    if (!entry) return null;
    const after = (window.__ffdMutations ?? []).filter((t) => t >= entry.responseEnd);
    return after.length === 0 ? null : (after[0] ?? 0) - entry.responseEnd;
  }, response.url());
}

function addFilterFigures(ctx: BenchContext, ranges: readonly string[], samples: number[], skipped: string[]): void {
  const how = `Playwright, Chromium: ${String(samples.length)} status changes over date ranges ${ranges.join(", ")}; from the /api/transactions response's responseEnd (resource timing) to the table's first DOM mutation after it (MutationObserver; paint follows within the frame)${skipped.length > 0 ? `; no matching /api/transactions response within ${String(RESPONSE_TIMEOUT_MS / 1000)} s for (range/status) ${skipped.join(", ")}: not sampled` : ""}`;
  if (samples.length === 0) {
    ctx.notMeasured({
      part: "pages",
      name: "filter change → new rows: p50",
      unit: "ms",
      goal: { op: "<=", target: FILTER_GOAL_MS },
      reason: "no sample: the table did not change after the response",
      note: "",
    });
    return;
  }
  ctx.add({
    part: "pages",
    name: "filter change → new rows: p50",
    value: Math.round(median(samples)),
    unit: "ms",
    goal: { op: "<=", target: FILTER_GOAL_MS },
    note: how,
  });
  ctx.add({
    part: "pages",
    name: "filter change → new rows: max",
    value: Math.round(percentile(samples, 100)),
    unit: "ms",
    goal: { op: "<=", target: FILTER_GOAL_MS },
    note: `${how}; samples ms: ${samples.map((s) => s.toFixed(0)).join(", ")}`,
  });
}
