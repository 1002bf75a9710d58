// The sign-in journey: the form (with the masked secret and its toggle), a wrong secret, the redirect back to the page
// asked for and the refusal of a foreign one, sign-out, a copied session cookie that must stop working once its session
// is signed out, and a page whose session ended elsewhere.
import { request as playwrightRequest } from "@playwright/test";

import {
  DEMO_CUSTOMER_NAME,
  expect,
  loginForm,
  pageAlerts,
  sameOriginHeaders,
  sessionCookieOf,
  test,
} from "./fixtures";

test("a good key pair through the form lands on Overview with the customer's name", async ({ page, demoKeys }) => {
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  const form = loginForm(page);
  await form.keyId.fill(demoKeys["demo-full"].keyId);
  await form.secret.fill(demoKeys["demo-full"].secret);
  await expect(form.secret).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Show secret" }).click();
  await expect(form.secret).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: /^hide secret$/i }).click();
  await expect(form.secret).toHaveAttribute("type", "password");
  await form.submit.click();

  await expect(page).toHaveURL((url) => url.pathname === "/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText(DEMO_CUSTOMER_NAME).first()).toBeVisible();
});

test("a wrong secret shows an alert and stays on the login page", async ({ page, demoKeys }) => {
  await page.goto("/login");
  const form = loginForm(page);
  await form.keyId.fill(demoKeys["demo-full"].keyId);
  await form.secret.fill("not-the-secret");
  await form.submit.click();

  await expect(pageAlerts(page).filter({ hasText: /\S/ }).first()).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === "/login");
  await expect(page.getByRole("heading", { name: "Overview" })).toHaveCount(0);
});

test("a visit without a session goes to the login page and, after signing in, back to the page asked for", async ({
  page,
  demoKeys,
}) => {
  await page.goto("/transactions");
  await expect(page).toHaveURL((url) => url.pathname === "/login" && url.searchParams.get("next") === "/transactions");

  const form = loginForm(page);
  await form.keyId.fill(demoKeys["demo-full"].keyId);
  await form.secret.fill(demoKeys["demo-full"].secret);
  await form.submit.click();

  await expect(page).toHaveURL((url) => url.pathname === "/transactions");
});

test("signing out returns to the login page and says so", async ({ loggedInPage: page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();

  await expect(page).toHaveURL((url) => url.pathname === "/login" && url.searchParams.get("reason") === "signed-out");
  await expect(page.getByText("You signed out.")).toBeVisible();
});

test("a copied session cookie replayed after sign-out gets 401", async ({ loggedInPage: page, appOrigin }) => {
  const session = await sessionCookieOf(page);
  expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax" });

  // Another client holding a copy of the cookie: no browser context, only the Cookie header.
  const thief = await playwrightRequest.newContext({
    baseURL: appOrigin,
    extraHTTPHeaders: { Cookie: session.header },
  });
  try {
    const before = await thief.get("/api/account");
    expect(before.status(), "the copied cookie works while its session is live").toBe(200);

    await page.goto("/");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/login");

    const after = await thief.get("/api/account");
    expect(after.status()).toBe(401);
  } finally {
    await thief.dispose();
  }
});

test("a session ended elsewhere sends the page to the login page with the reason", async ({
  loggedInPage: page,
  appOrigin,
}) => {
  const session = await sessionCookieOf(page);
  // The same session signed out from another client: this browser still holds a cookie the BFF now refuses.
  const other = await playwrightRequest.newContext({
    baseURL: appOrigin,
    extraHTTPHeaders: { Cookie: session.header },
  });
  try {
    const signOut = await other.delete("/api/session", { headers: sameOriginHeaders(appOrigin) });
    expect(signOut.ok(), `DELETE /api/session answered ${signOut.status()}`).toBe(true);
  } finally {
    await other.dispose();
  }

  await page.goto("/");
  await expect(page).toHaveURL(
    (url) =>
      url.pathname === "/login" && url.searchParams.get("reason") === "expired" && url.searchParams.get("next") === "/",
  );
  await expect(page.getByText("Your session ended")).toBeVisible();
});

test("a next parameter pointing at another site is not followed", async ({ page, demoKeys, appOrigin }) => {
  await page.goto("/login?next=%2F%2Fevil.example%2Fphish");
  const form = loginForm(page);
  await form.keyId.fill(demoKeys["demo-full"].keyId);
  await form.secret.fill(demoKeys["demo-full"].secret);
  await form.submit.click();

  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(appOrigin);
  expect(new URL(page.url()).pathname).toBe("/");
});

test("against the sandbox the login page offers the demo key by its id, and it signs in without typing", async ({
  page,
  demoKeys,
}) => {
  await page.goto("/login?next=/transactions");
  const offer = page.getByRole("region", { name: "Trying it out?" });
  await expect(offer).toContainText(demoKeys["demo-full"].keyId);
  // The secret never reaches the browser: not in the page, not in the form.
  expect(await page.content()).not.toContain(demoKeys["demo-full"].secret);
  await expect(loginForm(page).secret).toHaveValue("");
  await offer.getByRole("button", { name: "Sign in with the demo key" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/transactions");
  await expect(page.getByText(DEMO_CUSTOMER_NAME).first()).toBeVisible();
});
