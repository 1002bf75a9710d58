// The plumbing every other spec relies on, independent of how the pages look: the proxy's redirect to the login
// page, and a session opened through the API that the browser then carries on its own.
import { DEMO_CUSTOMER_NAME, expect, test } from "./fixtures";

test("a page without a session redirects to /login with the path to return to", async ({ page }) => {
  const response = await page.request.get("/transactions?status=failed", { maxRedirects: 0 });
  expect(response.status()).toBe(307);
  const location = new URL(response.headers().location ?? "", "http://x");
  expect(location.pathname).toBe("/login");
  expect(location.searchParams.get("next")).toBe("/transactions?status=failed");
});

test("a session opened through the API is used by the browser's own requests", async ({
  loggedInPage: page,
  profile,
}) => {
  const session = await page.request.get("/api/session");
  expect(session.status()).toBe(200);
  // The alternative profile's account reply has no customer code.
  expect(await session.json()).toMatchObject({
    customer: { name: DEMO_CUSTOMER_NAME, code: profile === "primary" ? "PFL" : null },
  });

  // A navigation sends the cookie too: the proxy lets the page through instead of redirecting to /login.
  const response = await page.goto("/");
  expect(new URL(page.url()).pathname).toBe("/");
  expect(response?.status()).toBeLessThan(400);
  expect(await page.evaluate(async () => (await fetch("/api/session")).status)).toBe(200);
});
