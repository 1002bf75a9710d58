// Issue 26: Lighthouse's best practices scored the overview 96 for an error in the browser's console, which axe does
// not check: on a server without the mirror, the savings panel asked GET /api/savings, whose 409 the browser logs as
// a failed request. The page now asks only what can answer, and says why the panel is empty.
import type { ConsoleMessage, Response } from "@playwright/test";

import { expect, expectLoaded, liveTest as test } from "./fixtures";

test("the overview without a local copy logs no error and fails no request", async ({ loggedInPage: page }) => {
  const problems: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("response", (response: Response) => {
    if (response.status() >= 400)
      problems.push(`HTTP ${String(response.status())} ${new URL(response.url()).pathname}`);
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expectLoaded(page);
  await expect(page.getByText(/which this server does not keep \(its mirror is off\)/)).toBeVisible();
  expect(problems).toEqual([]);
});
