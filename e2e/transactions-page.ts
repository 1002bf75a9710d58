// The transactions page as the e2e specs drive it (e2e/transactions*.spec.ts): its rows, the range summary, and
// opening the list until it has loaded.
import type { Page } from "@playwright/test";

import { expect, expectLoaded } from "./fixtures";

/** Rows per page when the URL does not say. */
export const DEFAULT_PAGE_SIZE = 50;

export const rows = (page: Page) => page.getByTestId("transaction-row");
export const rangeSummary = (page: Page) => page.getByTestId("range-summary");

export async function openList(page: Page, query = ""): Promise<void> {
  await page.goto(`/transactions${query}`);
  await expect(page.getByRole("heading", { name: "Transactions", level: 1 })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  await expectLoaded(page);
}
