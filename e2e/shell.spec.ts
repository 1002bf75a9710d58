// The shell around every page: its own font (no CDN), a layout that holds from a 360 px phone up (every page), a dark theme that
// passes axe too, and a proper title per page.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";

import { DEMO_CUSTOMER_NAME, expect, expectLoaded, test } from "./fixtures";
import { type Profile, serversOf } from "./profiles";

async function openOverview(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText(DEMO_CUSTOMER_NAME).first()).toBeVisible();
  await expectLoaded(page);
}

test("the pages use the app's own font, loaded from the app itself, and request nothing from another origin", async ({
  loggedInPage: page,
  appOrigin,
}) => {
  const foreign: string[] = [];
  const fonts: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith("http") && url.origin !== appOrigin) foreign.push(request.url());
    if (request.resourceType() === "font") fonts.push(request.url());
  });
  await openOverview(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const loaded = await page.evaluate(() =>
    [...document.fonts].filter((face) => face.status === "loaded").map((face) => face.family),
  );
  expect(loaded.length).toBeGreaterThan(0);
  const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  expect(loaded.some((family) => bodyFont.includes(family.replaceAll('"', "")))).toBe(true);
  expect(fonts.length).toBeGreaterThan(0);
  for (const font of fonts) expect(new URL(font).origin).toBe(appOrigin);
  expect(foreign).toEqual([]);
});

/** How far the page scrolls sideways (0 when it fits), with the elements sticking out furthest past the right edge. */
async function sidewaysOverflow(page: Page): Promise<{ overflow: number; offenders: string[] }> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  // On failure, name the elements that stick out furthest past the right edge (e.g. an absolutely positioned
  // screen-reader text escaping a scrolling box that is not its containing block).
  const offenders =
    overflow <= 0
      ? []
      : await page.evaluate(() => {
          const width = document.documentElement.clientWidth;
          return [...document.body.querySelectorAll("*")]
            .map((el) => ({ el, right: el.getBoundingClientRect().right }))
            .filter((x) => x.right > width + 1)
            .sort((a, b) => b.right - a.right)
            .slice(0, 5)
            .map(
              (x) =>
                `${x.el.tagName.toLowerCase()}.${(x.el.getAttribute("class") ?? "").slice(0, 60)} (${getComputedStyle(x.el).position}) right=${String(Math.round(x.right))}`,
            );
        });
  return { overflow, offenders };
}

/** The demo customer's transaction whose driver has the longest e-mail address (the widest unbroken text of a detail). */
function longestEmailTransactionId(profile: Profile): string {
  const db = new Database(serversOf(profile).db, { readonly: true });
  try {
    const id: unknown = db
      .prepare(
        "SELECT t.id FROM transactions t JOIN drivers d ON d.pk = t.driver_pk JOIN customers c ON c.pk = t.customer_pk WHERE c.code = 'PFL' ORDER BY length(d.email) DESC, t.at_utc DESC LIMIT 1",
      )
      .pluck()
      .get();
    if (typeof id !== "string") throw new Error("the sandbox has no transaction of the demo customer");
    return id;
  } finally {
    db.close();
  }
}

async function firstStationId(page: Page): Promise<string> {
  const response = await page.request.get("/api/locations?limit=1");
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { items?: { id?: unknown }[] };
  const id = body.items?.[0]?.id;
  if (typeof id !== "string") throw new Error(`no station in ${JSON.stringify(body)}`);
  return id;
}

/** Every page of the dashboard, signed in: how to reach it and the heading that shows it is there. */
const SIGNED_IN_PAGES: readonly {
  name: string;
  path: (page: Page, profile: Profile) => Promise<string> | string;
  heading: RegExp;
  widths: readonly number[];
}[] = [
  { name: "the overview", path: () => "/", heading: /^Overview$/, widths: [360] },
  { name: "the transactions list", path: () => "/transactions", heading: /^Transactions$/, widths: [360] },
  // The detail with the longest e-mail address of the data: it must wrap, not push the page sideways.
  {
    name: "a transaction's detail (longest e-mail)",
    path: (_page, profile) => `/transactions/${longestEmailTransactionId(profile)}`,
    heading: /^Transaction /,
    widths: [360, 375],
  },
  { name: "the stations map", path: () => "/stations", heading: /Stations/, widths: [360] },
  {
    name: "a station's detail",
    path: async (page) => `/stations/${await firstStationId(page)}`,
    heading: /./,
    widths: [360],
  },
  { name: "the not-found page", path: () => "/no-such-page", heading: /not found/i, widths: [360] },
];

for (const { name, path, heading, widths } of SIGNED_IN_PAGES) {
  for (const width of widths) {
    test(`${name} fits a ${String(width)} px wide phone without sideways scrolling`, async ({
      loggedInPage: page,
      profile,
    }) => {
      await page.setViewportSize({ width, height: 780 });
      await page.goto(await path(page, profile));
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expectLoaded(page);
      const { overflow, offenders } = await sidewaysOverflow(page);
      expect(overflow, offenders.join("\n")).toBeLessThanOrEqual(0);
      // The navigation is still reachable (the not-found page has its own way back).
      if (!heading.test("Page not found"))
        await expect(page.getByRole("link", { name: "Transactions" }).first()).toBeVisible();
    });
  }
}

test("on a 390 px phone every section of the navigation is on screen, one tap away, the current one marked", async ({
  loggedInPage: page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/", "/exceptions"]) {
    await page.goto(path);
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const label of [
      "Overview",
      "Transactions",
      "Stations",
      "Reports",
      "Drivers",
      "Trucks",
      "Cards",
      "Exceptions",
    ]) {
      const link = nav.getByRole("link", { name: label, exact: true });
      await expect(link).toBeInViewport({ ratio: 1 });
      const box = await link.boundingBox();
      // A tap target: at least 44 × 24 CSS px (WCAG 2.2 target size asks 24).
      expect(box?.height ?? 0, label).toBeGreaterThanOrEqual(24);
      expect(box?.width ?? 0, label).toBeGreaterThanOrEqual(44);
    }
  }
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Exceptions" }),
  ).toHaveAttribute("aria-current", "page");
});

test("the login page fits a 360 px wide phone without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  const { overflow, offenders } = await sidewaysOverflow(page);
  expect(overflow, offenders.join("\n")).toBeLessThanOrEqual(0);
});

test("the dark theme (system preference) has no serious or critical axe violation on the overview, chart included", async ({
  loggedInPage: page,
}) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await openOverview(page);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  // slate-950, not the light theme's slate-50
  expect(background).not.toBe("rgb(248, 250, 252)");
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const blocking = results.violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test("each page has its own title", async ({ loggedInPage: page }) => {
  for (const [path, title] of [
    ["/", /^Overview · Fleet Fuel Dashboard$/],
    ["/transactions", /^Transactions · Fleet Fuel Dashboard$/],
    ["/no-such-page", /Not found|Page not found/i],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
});

for (const [name, path, heading] of [
  ["a transaction's detail", "first-row", "Transaction"],
  ["the not-found page", "/no-such-page", /not found/i],
] as const) {
  test(`${name} has no serious or critical axe violation`, async ({ loggedInPage: page }) => {
    if (path === "first-row") {
      await page.goto("/transactions");
      await page.getByTestId("transaction-row").first().locator("time").click();
      await expect(page).toHaveURL(/\/transactions\/[^/?]+/);
    } else {
      await page.goto(path);
    }
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expectLoaded(page);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    const blocking = results.violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
}

test("no page breaks its own Content-Security-Policy (no eval probe, no inline script, no foreign source)", async ({
  loggedInPage: page,
}) => {
  // The browser fires `securitypolicyviolation` for every refused eval, script, style or connection; Lighthouse's best
  // practices count the same reports. Collected from the first script on, on every page of the dashboard.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(window, "__cspViolations", { value: seen });
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${String(event.lineNumber)}`);
    });
  });
  const violations = () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
  const visited: Record<string, string[]> = {};
  await openOverview(page);
  visited["/"] = await violations();
  await page.goto("/transactions");
  await page.getByTestId("transaction-row").first().locator("time").click();
  await expect(page).toHaveURL(/\/transactions\/[^/?]+/);
  await expectLoaded(page);
  visited["/transactions → detail"] = await violations();
  await page.goto("/stations");
  await expect(page.getByTestId("station-map")).toHaveAttribute("data-drawn-count", /^[1-9]\d*$/, { timeout: 30_000 });
  await expectLoaded(page);
  visited["/stations"] = await violations();
  expect(visited).toEqual({ "/": [], "/transactions → detail": [], "/stations": [] });
});
