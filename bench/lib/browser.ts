/** Browser helpers shared by the parts that drive pages with Playwright. */
import type { Browser, BrowserContext, Page } from "@playwright/test";

import { CSRF_HEADER_NAME, CSRF_HEADER_VALUE } from "@/lib/bff/http/csrf";

import type { DemoKeyPair } from "./sandbox";

const SETTLE_TIMEOUT_MS = 30_000;

/** A browser context signed in through `POST /api/session`, as the login page does (the cookie lands in the context). */
export async function signedInContext(
  browser: Browser,
  origin: string,
  key: DemoKeyPair,
  options: { colorScheme?: "light" | "dark" } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin, colorScheme: options.colorScheme ?? "light" });
  const res = await context.request.post("/api/session", {
    data: { keyId: key.keyId, secret: key.secret },
    headers: { [CSRF_HEADER_NAME]: CSRF_HEADER_VALUE, Origin: origin },
  });
  if (res.status() !== 200) throw new Error(`POST /api/session answered ${String(res.status())}: ${await res.text()}`);
  return context;
}

/** Waits until the network is idle and no part of the page is loading (the cards and the table set aria-busy). */
export async function waitSettled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle", { timeout: SETTLE_TIMEOUT_MS });
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null, undefined, {
    timeout: SETTLE_TIMEOUT_MS,
  });
}
