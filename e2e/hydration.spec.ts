// Hydration (issue 26 item 3): /reports/jurisdictions?quarter=… in the dark scheme threw React's hydration error
// #418 on about one load in four. The page is server-rendered per request; a value the client's first render reads
// that the server could not know (here: the session query, which the header had often already answered by the time
// the report's Suspense boundary hydrated) makes the two renders differ. Loaded many times, since it was timing
// dependent.
import type { Page } from "@playwright/test";

import { DEMO_CUSTOMER_NAME, expect, test } from "./fixtures";

const LOADS = 8;
const HYDRATION = /hydrat|#418|#425|did not match|didn't match/i;

test.use({ colorScheme: "dark" });

/** Every console error and uncaught page error of `page` from now on, as text. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => {
    errors.push(`${error.name}: ${error.message}`);
  });
  return errors;
}

test(`/reports/jurisdictions?quarter=2026-Q3 hydrates without a mismatch in the dark scheme (${String(LOADS)} loads)`, async ({
  loggedInPage: page,
}) => {
  // Eight full loads on a machine the two profiles' browsers and apps share: a bound for a hang, not a speed check.
  test.setTimeout(LOADS * 45_000);
  const errors = collectErrors(page);
  const failedLoads: number[] = [];
  for (let load = 1; load <= LOADS; load += 1) {
    const before = errors.length;
    await page.goto("/reports/jurisdictions?quarter=2026-Q3");
    await expect(page.getByRole("heading", { name: "Fuel by jurisdiction", level: 1 })).toBeVisible();
    // Hydrated: the period's eight recent quarters (between "Last 30 days" and "Dates…") are listed only from the
    // client's first update on, and the session has answered.
    await expect(page.getByRole("combobox", { name: "Period" }).locator("option")).toHaveCount(10);
    await expect(page.getByTestId("print-heading")).toContainText(DEMO_CUSTOMER_NAME);
    if (errors.slice(before).some((text) => HYDRATION.test(text))) failedLoads.push(load);
  }
  expect(
    errors.filter((text) => HYDRATION.test(text)),
    `hydration errors on loads ${failedLoads.join(", ")} of ${String(LOADS)}`,
  ).toEqual([]);
});
