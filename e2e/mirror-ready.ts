import { expect, type Page } from "@playwright/test";

/** The demo customer's history (25,000 rows) loads in well under this at the e2e apps' budget. */
export const MIRROR_READY_TIMEOUT_MS = 120_000;

/** Waits until the signed-in page's mirror says `ready` (GET /api/sync): the pages it feeds then show whole figures. */
export async function waitForMirrorReady(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await page.request.get("/api/sync");
        return response.ok() ? ((await response.json()) as { state: string }).state : `HTTP ${response.status()}`;
      },
      { timeout: MIRROR_READY_TIMEOUT_MS, intervals: [1_000] },
    )
    .toBe("ready");
}
