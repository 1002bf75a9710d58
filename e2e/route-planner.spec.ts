// The Route mode of the stations page (issue 18): the ranked corridor and the fill plan equal what lib/route computes
// from the sandbox's own catalog, the route typed in the form lands in the URL (and back), the truck stays in the
// browser unless put in the link, validation says what to fix, and a keyboard-only path.
import { DEFAULT_TRUCK, suggestPlanFixes } from "@/lib/route";

import { expect, test } from "./fixtures";
import {
  AMARILLO,
  DALLAS,
  DENVER,
  expectedRoute,
  expectPlan,
  expectRouteRanked,
  routeQuery,
  toStation,
} from "./route-planner-page";
import { sandboxCatalog } from "./sandbox-stations";
import { map, openStations } from "./stations-page";

test("the ranked corridor and the fill plan equal lib/route's over the sandbox's catalog", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  const expected = expectedRoute(catalog);
  expect(expected.ranked.length, "the test route needs corridor stations").toBeGreaterThan(5);

  await openStations(page, routeQuery());
  await expect(page.getByRole("radio", { name: "Route" })).toBeChecked();
  await expect(page.getByTestId("route-summary")).toContainText("Dallas, TX → Amarillo, TX → Denver, CO");
  await expect(page.getByTestId("route-summary")).toContainText(
    `${String(expected.candidates.length)} stations with a diesel price within 10 mi of the path.`,
  );
  await expect(page.getByTestId("route-approximation")).toContainText("straight line (great-circle)");
  await expectRouteRanked(page, expected.ranked);
  await expect(page.getByRole("table", { name: /Corridor stations by effective diesel price/ })).toBeVisible();
  await expectPlan(page, expected.plan);
  // The route and the plan's numbered stops are on the map.
  await expect(map(page).locator("path.ffd-route-line")).toHaveCount(1);
  await expect(map(page).locator(".ffd-route-stop")).toHaveText(expected.plan.stops.map((_, i) => String(i + 1)));
  await expect(map(page).locator("path.ffd-route-corridor")).toHaveCount(expected.candidates.length);

  // Selecting a row opens the station's popup on the map.
  const first = expected.ranked[0];
  if (first === undefined) throw new Error("no ranked station");
  const row = page.getByTestId("route-row").first();
  await row.getByRole("button", { name: first.station.name }).click();
  await expect(row.getByRole("button", { name: first.station.name })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("station-popup")).toContainText(first.station.name);
  await expect(page).toHaveURL((url) => url.searchParams.get("station") === first.station.id);
});

test("a wider corridor and a higher circuity change the ranking as lib/route says, and are shown", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  const options = { corridorMiles: 25, circuity: 1.5, detourSpeedMph: 45 };
  const expected = expectedRoute(catalog, [DALLAS, AMARILLO, DENVER], options);
  await openStations(page, routeQuery());
  await page.getByLabel("Corridor width").fill("25");
  await page.getByLabel("Circuity").fill("1.5");
  await expect(page).toHaveURL(
    (url) => url.searchParams.get("corridor") === "25" && url.searchParams.get("circuity") === "1.5",
  );
  await expectRouteRanked(page, expected.ranked);
  await expectPlan(page, expected.plan);
  await page.getByLabel("Corridor width").fill("500");
  await expect(page.getByText("Corridor width must be a number from 1 to 50 mi.")).toBeVisible();
  await expect(page.getByLabel("Corridor width")).toHaveAttribute("aria-invalid", "true");
  expect(new URL(page.url()).searchParams.get("corridor")).toBe("25");
});

test("the route typed in the form lands in the URL; the truck stays in the browser unless put in the link", async ({
  loggedInPage: page,
  browser,
  profile,
  demoKeys,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  await openStations(page);
  // The segmented control's visible part is the radio's label.
  await page.getByText("Route", { exact: true }).click();
  await expect(page.getByRole("radio", { name: "Route" })).toBeChecked();
  await expect(page).toHaveURL((url) => url.searchParams.get("mode") === "route");
  await page.getByLabel("From", { exact: true }).fill(`${String(DALLAS.lat)}, ${String(DALLAS.lng)}`);
  await page.getByRole("button", { name: "Find from" }).click();
  await page.getByLabel("To", { exact: true }).fill(`${String(DENVER.lat)}, ${String(DENVER.lng)}`);
  await page.getByRole("button", { name: "Find to" }).click();
  await page.getByRole("button", { name: "Add a via point" }).click();
  await page.getByLabel("Via 1", { exact: true }).fill(`${String(AMARILLO.lat)}, ${String(AMARILLO.lng)}`);
  await page.getByRole("button", { name: "Find via 1" }).click();
  await expect(page).toHaveURL(
    (url) =>
      url.searchParams.get("from") === "32.7767,-96.7970" &&
      url.searchParams.get("to") === "39.7392,-104.9903" &&
      url.searchParams.get("via") === "35.2220,-101.8313" &&
      url.searchParams.get("tank") === null,
  );

  // A truck the person types: checked as typed, used and remembered when valid.
  const truck = { ...DEFAULT_TRUCK, fuelNowGallons: 30 };
  await page.getByLabel("Gallons now (gal)").fill("200");
  await expect(page.getByText("Gallons now cannot exceed the tank size.")).toBeVisible();
  await expect(page.getByLabel("Gallons now (gal)")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Gallons now (gal)").fill("30");
  await expect(page.getByText("Gallons now cannot exceed the tank size.")).toHaveCount(0);
  const expected = expectedRoute(catalog, [DALLAS, AMARILLO, DENVER], undefined, truck);
  await expectRouteRanked(page, expected.ranked);
  await expectPlan(page, expected.plan);
  const withoutTruck = page.url();

  // The same link in this browser: the remembered truck. In another browser: the defaults.
  await page.goto(withoutTruck);
  await expect(page.getByLabel("Gallons now (gal)")).toHaveValue("30");
  // Another browser: the session cookie only, none of this browser's storage.
  const { cookies } = await page.context().storageState();
  const other = await browser.newContext({ storageState: { cookies, origins: [] } });
  const otherPage = await other.newPage();
  await otherPage.goto(withoutTruck);
  await expect(otherPage.getByLabel("Gallons now (gal)")).toHaveValue(String(DEFAULT_TRUCK.fuelNowGallons));

  // "Include truck in link": the link carries it, and another browser plans with it.
  // click, not check(): the box follows the URL, which the router updates a moment after the click.
  await page.getByLabel("Include truck in link").click();
  await expect(page.getByLabel("Include truck in link")).toBeChecked();
  await expect(page).toHaveURL(
    (url) => url.searchParams.get("fuel") === "30" && url.searchParams.get("tank") === "150",
  );
  await otherPage.goto(page.url());
  await expect(otherPage.getByLabel("Gallons now (gal)")).toHaveValue("30");
  await expect(otherPage.getByLabel("Include truck in link")).toBeChecked();
  await expectRouteRanked(otherPage, expected.ranked);
  await expectPlan(otherPage, expected.plan);
  await other.close();
});

test("keyboard only: switch to Route, type the points, reach the ranked list and select a station", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  const expected = expectedRoute(catalog, [DALLAS, DENVER]);
  const first = expected.ranked[0];
  if (first === undefined) throw new Error("no ranked station");
  await openStations(page);
  const tabTo = async (target: ReturnType<typeof page.getByRole>, what: string) => {
    for (let tabs = 0; !(await target.evaluate((el) => el === document.activeElement)); tabs++) {
      expect(tabs, `${what} not reached within 80 Tab presses`).toBeLessThan(80);
      await page.keyboard.press("Tab");
    }
  };
  await tabTo(page.getByRole("radio", { name: "Cheapest near here" }), "the mode switch");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("radio", { name: "Route" })).toBeChecked();
  await tabTo(page.getByRole("textbox", { name: "From", exact: true }), "the From field");
  await page.keyboard.type(`${String(DALLAS.lat)}, ${String(DALLAS.lng)}`);
  await page.keyboard.press("Enter");
  await tabTo(page.getByRole("textbox", { name: "To", exact: true }), "the To field");
  await page.keyboard.type(`${String(DENVER.lat)}, ${String(DENVER.lng)}`);
  await page.keyboard.press("Enter");
  const button = page.getByTestId("route-row").first().getByRole("button", { name: first.station.name });
  await tabTo(button, "the first ranked station");
  await page.keyboard.press("Enter");
  await expect(button).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("station-popup")).toContainText(first.station.name);
});

test("a plan no stop can make says why, and the truck in the link is the one planned for", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  // 5 usable gallons (about 32 miles) and a 1-mile corridor: the truck cannot reach Denver.
  const truck = { tankGallons: 150, fuelNowGallons: 25, mpg: 6.5, reserveGallons: 20, hourlyValue: 35 };
  const options = { corridorMiles: 1, circuity: 1.25, detourSpeedMph: 45 };
  const expected = expectedRoute(catalog, [DALLAS, AMARILLO, DENVER], options, truck);
  expect(expected.plan.feasible).toBe(false);
  await openStations(page, routeQuery("&corridor=1&tank=150&fuel=25&mpg=6.5&reserve=20&hour=35"));
  await expect(page.getByTestId("route-plan-reason")).toHaveText(
    `No fill plan keeps the truck above its reserve: ${expected.plan.reason ?? ""}.`,
  );
  // Said in miles, with the truck's range; no verdict points at the plan that does not exist.
  expect(expected.plan.reason).toMatch(/-mile gap .*mi at 6\.5 mpg/);
  await expect(page.getByTestId("route-verdict").filter({ hasText: "see the plan" })).toHaveCount(0);
  await expect(page.getByTestId("route-truck-summary")).toContainText(
    "150 gal tank, 25 gal now, 6.5 mpg, 20 gal reserve",
  );
  await expectRouteRanked(page, expected.ranked);

  // The page offers the narrowest wider corridor that gives a plan (checked with lib/route), and applies it.
  const priced = catalog
    .filter((s) => s.price !== null)
    .map((s) => ({ station: toStation(s), price: Number(s.price), priceText: String(s.price) }));
  const limits = { maxCorridorMiles: 50, canAddVia: true };
  const fixes = suggestPlanFixes([DALLAS, AMARILLO, DENVER], priced, truck, options, limits);
  const wider = fixes?.corridorMiles ?? null;
  if (wider === null) throw new Error("the test route needs a wider corridor that gives a plan");
  await page.getByRole("button", { name: `Widen the corridor to ${String(wider)} mi` }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("corridor") === String(wider));
  await expectPlan(
    page,
    expectedRoute(catalog, [DALLAS, AMARILLO, DENVER], { ...options, corridorMiles: wider }, truck).plan,
  );
});
