// The Route mode's views (issue 18): axe in both themes, a 360 px wide screen, the printed summary, and another
// product than diesel checked station by station along the corridor (alternative profile: its details price several).
import AxeBuilder from "@axe-core/playwright";

import { DEFAULT_ROUTE_OPTIONS } from "@/lib/route";

import { expect, test } from "./fixtures";
import {
  DALLAS,
  DENVER,
  expectedFromPriced,
  expectedRoute,
  expectPlan,
  expectRouteRanked,
  routeQuery,
  toStation,
} from "./route-planner-page";
import { sandboxCatalog, sandboxDetails } from "./sandbox-stations";
import { map, openStations, PRICE_CHECK_STEP } from "./stations-page";

const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

for (const scheme of ["light", "dark"] as const) {
  test(`the Route mode has no serious or critical axe violation outside the map's panes (${scheme} theme)`, async ({
    loggedInPage: page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openStations(page, routeQuery());
    await expect(page.getByTestId("route-plan")).toBeVisible({ timeout: 30_000 });
    // Leaflet's panes are canvas and SVG without text or roles (as on the stations page's own scan).
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).exclude(".leaflet-pane").analyze();
    const blocking = results.violations.filter((v) => BLOCKING_IMPACTS.has(v.impact ?? ""));
    const report = blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`).join("\n");
    expect(blocking, report).toEqual([]);
  });
}

test("at 360 px wide the page does not scroll sideways (the ranking is cards, the plan scrolls in its own box)", async ({
  loggedInPage: page,
}) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await openStations(page, routeQuery());
  await expect(page.getByTestId("route-plan")).toBeVisible({ timeout: 30_000 });
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  await expect(page.getByLabel("From", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pick on map (from)" })).toBeVisible();
});

test("the printed summary: the route, the truck, the ranking and the plan, without the map, filters and forms", async ({
  loggedInPage: page,
}) => {
  await openStations(page, routeQuery());
  await expect(page.getByTestId("route-plan")).toBeVisible({ timeout: 30_000 });
  await page.emulateMedia({ media: "print" });
  await expect(map(page)).toBeHidden();
  await expect(page.getByLabel("From", { exact: true })).toBeHidden();
  await expect(page.getByRole("navigation").first()).toBeHidden();
  await expect(page.getByTestId("route-summary")).toBeVisible();
  await expect(page.getByTestId("route-truck-summary")).toContainText("150 gal tank, 60 gal now, 6.5 mpg");
  await expect(page.getByTestId("route-ranked")).toBeVisible();
  await expect(page.getByTestId("route-plan")).toBeVisible();
  await expect(page.getByRole("button", { name: "Print summary" })).toBeHidden();
});

test("unleaded along the route: only corridor stations are checked, nearest the path first, and ranked by lib/route", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.skip(profile !== "alternative", "the primary station detail gives one price: no product choice");
  test.setTimeout(120_000);
  const key = demoKeys["demo-full"];
  const catalog = (await sandboxCatalog(page, profile, key)).map(toStation);
  const points = [DALLAS, DENVER];
  // Every corridor station by geometry, in the order the page checks them: nearest the path first.
  const corridor = expectedFromPriced(
    // Geometry only: any positive price (lib/route leaves out stations priced $0 or less).
    catalog.map((station) => ({ station, price: 1, priceText: "" })),
    points,
  ).candidates.sort(
    (a, b) =>
      a.offMiles - b.offMiles || a.alongMiles - b.alongMiles || a.station.locNum.localeCompare(b.station.locNum),
  );
  const checked = corridor.slice(0, PRICE_CHECK_STEP);
  const details = await sandboxDetails(
    page,
    profile,
    key,
    checked.map((c) => c.station.id),
  );
  const priced = checked.flatMap((c) => {
    const price = details.get(c.station.id)?.prices?.unleaded ?? null;
    return price === null ? [] : [{ station: c.station, price: Number(price), priceText: String(price) }];
  });
  const expected = expectedFromPriced(priced, points);
  const byDiesel = expectedRoute(await sandboxCatalog(page, profile, key), points, DEFAULT_ROUTE_OPTIONS);

  const query = `?mode=route&from=32.7767,-96.7970&to=39.7392,-104.9903&product=unleaded`;
  await openStations(page, query);
  await expect(page.getByTestId("price-check-status")).toContainText(
    corridor.length > PRICE_CHECK_STEP
      ? `Unleaded prices checked at the ${String(PRICE_CHECK_STEP)} nearest of ${String(corridor.length)} stations within 10 mi.`
      : `Unleaded prices checked at all ${String(corridor.length)} stations within 10 mi.`,
    { timeout: 60_000 },
  );
  await expect(page.getByRole("table", { name: /Corridor stations by effective unleaded price/ })).toBeVisible();
  // The unleaded ranking is not the diesel one, or this test would prove nothing about the product.
  expect(expected.ranked.map((c) => c.station.id)).not.toEqual(byDiesel.ranked.map((c) => c.station.id));
  await expectRouteRanked(page, expected.ranked);
  if (expected.plan.feasible && expected.plan.stops.length > 0) await expectPlan(page, expected.plan);
});

test("'Pick on map' sets the point from a click on the map", async ({ loggedInPage: page }) => {
  await openStations(page, "?mode=route&from=32.7767,-96.7970&fromPlace=Dallas%2C+TX");
  await page.getByRole("button", { name: "Pick on map (to)" }).click();
  await expect(page.getByTestId("route-picking")).toContainText("Click the map to set the destination.");
  const box = await map(page).boundingBox();
  if (box === null) throw new Error("the map is not on screen");
  // Low on the left: away from the zoom buttons (top left) and the attribution (bottom right).
  await page.mouse.click(box.x + box.width * 0.1, box.y + box.height * 0.85);
  await expect(page).toHaveURL((url) => url.searchParams.get("to") !== null);
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(/^-?\d+\.\d{4}, -?\d+\.\d{4}$/);
  await expect(page.getByTestId("route-picking")).toHaveCount(0);
  await expect(page.getByTestId("route-summary")).toContainText("Dallas, TX → ");
});

test("switching from a near point to Route brings the route into view", async ({ loggedInPage: page }) => {
  const points = "from=32.7767,-96.7970&to=39.7392,-104.9903";
  const line = map(page).locator("path.ffd-route-line");
  const routeBox = async () => {
    const box = await line.boundingBox();
    if (box === null) throw new Error("the route is not on screen");
    return box;
  };
  // The route opened as such: the map fitted to it.
  await openStations(page, `?mode=route&${points}`);
  await expect(line).toHaveCount(1);
  const fitted = await routeBox();
  // From a near point (the map fitted to its radius), switching to Route fits the map to the route the same way.
  await openStations(page, `?near=35.2220,-101.8313&radius=25&${points}`);
  await page.getByText("Route", { exact: true }).click();
  await expect(page.getByRole("radio", { name: "Route" })).toBeChecked();
  await expect(map(page).locator("path.ffd-radius-ring")).toHaveCount(0);
  await expect(async () => {
    const box = await routeBox();
    expect(Math.abs(box.height - fitted.height)).toBeLessThan(2);
    expect(Math.abs(box.width - fitted.width)).toBeLessThan(2);
  }).toPass();
});

test("a link's unusable parameters are listed above the form, and the page says what it uses instead", async ({
  loggedInPage: page,
}) => {
  await openStations(
    page,
    "?mode=route&from=32.7767,-96.7970&fromPlace=Dallas%2C+TX&to=39.7392,-104.9903&toPlace=Denver%2C+CO" +
      "&corridor=500&tank=100&fuel=150&mpg=6&reserve=10&hour=30",
  );
  const note = page.getByTestId("route-link-problems");
  await expect(note).toHaveAttribute("role", "status");
  await expect(note).toContainText("The link's corridor (500 mi) is out of range 1–50; using 10.");
  await expect(note).toContainText("The link's truck was ignored: Gallons now cannot exceed the tank size.");
  await expect(page.getByTestId("route-summary")).toContainText("within 10 mi of the path");
  // The route's points are lettered on the map and named in their titles (the markers looked alike).
  await expect(map(page).locator('.ffd-route-point[title="Start A: Dallas, TX"]')).toHaveCount(1);
  await expect(map(page).locator('.ffd-route-point[title="End B: Denver, CO"]')).toHaveText(/^B/);
  // A clean link has no note.
  await openStations(page, routeQuery());
  await expect(page.getByTestId("route-plan")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("route-link-problems")).toHaveCount(0);
});

test("DEF along the route: ranked only, with a sentence instead of the fill plan", async ({
  loggedInPage: page,
  profile,
}) => {
  test.skip(profile !== "alternative", "the primary station detail gives one price: no product choice");
  test.setTimeout(120_000);
  await openStations(page, "?mode=route&from=32.7767,-96.7970&to=39.7392,-104.9903&product=def");
  await expect(page.getByTestId("price-check-status")).toContainText("DEF prices checked", { timeout: 60_000 });
  await expect(page.getByTestId("route-plan-def")).toHaveText(
    "No fill plan for DEF: the plan is for the truck's fuel.",
  );
  await expect(page.getByTestId("route-plan")).toHaveCount(0);
  await expect(page.getByTestId("route-plan-infeasible")).toHaveCount(0);
});
