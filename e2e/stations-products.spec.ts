// The stations journey by product: unleaded or DEF ranked from the stations' details where the detail prices several
// products (alternative profile), a rate limit during the price checks, and the one-price detail (primary profile).
// On the app without a mirror (fixtures.ts liveTest) and its own sandbox, where the rate-limit journey sets its fault.
import {
  createSandboxKey,
  expect,
  expectLoaded,
  liveTest as test,
  resetSandboxFaults,
  setSandboxFaults,
  signInThroughApi,
} from "./fixtures";
import { RATE_LIMIT_SECONDS } from "./profiles";
import { nearestFirst, productRanking, sandboxCatalog, sandboxDetails } from "./sandbox-stations";
import { CHICAGO, expectRanked, findNear, openStations, PRICE_CHECK_STEP } from "./stations-page";

test("unleaded near a point: the ranked list equals a ranking of the sandbox's own detail replies, and more stations are checked on request", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.skip(profile !== "alternative", "the primary station detail gives one price: no product filter");
  test.setTimeout(120_000);
  const key = demoKeys["demo-full"];
  const radius = 50;
  const count = 10;
  const candidates = nearestFirst(await sandboxCatalog(page, profile, key), CHICAGO, radius);
  expect(candidates.length, "the test needs more stations within the radius than one check step").toBeGreaterThan(
    PRICE_CHECK_STEP,
  );
  const details = await sandboxDetails(
    page,
    profile,
    key,
    candidates.slice(0, 2 * PRICE_CHECK_STEP).map((x) => x.s.id),
  );

  await openStations(page);
  await page.getByRole("combobox", { name: "Product" }).selectOption("unleaded");
  await expect(page).toHaveURL((url) => url.searchParams.get("product") === "unleaded");
  await findNear(page, CHICAGO, radius);
  const status = page.getByTestId("price-check-status");
  await expect(status).toContainText(
    `Unleaded prices checked at the ${String(PRICE_CHECK_STEP)} nearest of ${String(candidates.length)} stations within ${String(radius)} mi.`,
    { timeout: 30_000 },
  );
  const first = productRanking(candidates.slice(0, PRICE_CHECK_STEP), details, "unleaded", count);
  // The unleaded ranking differs from the diesel one, or this test would prove nothing about the product.
  const byDiesel = candidates
    .slice(0, PRICE_CHECK_STEP)
    .filter((x) => x.s.price !== null)
    .sort((a, b) => Number(a.s.price) - Number(b.s.price) || a.miles - b.miles);
  expect(first.ranked.map((x) => x.s.id)).not.toEqual(byDiesel.slice(0, count).map((x) => x.s.id));
  await expectRanked(page, first.ranked);
  await expect(page.getByRole("columnheader", { name: "Unleaded", exact: true })).toBeVisible();
  await expect(page.getByTestId("legend-product-note")).toContainText("The map colours diesel prices");

  await page.getByRole("button", { name: `Check ${String(PRICE_CHECK_STEP)} more` }).click();
  await expect(status).toContainText(
    `Unleaded prices checked at the ${String(2 * PRICE_CHECK_STEP)} nearest of ${String(candidates.length)} stations`,
    { timeout: 30_000 },
  );
  await expectRanked(
    page,
    productRanking(candidates.slice(0, 2 * PRICE_CHECK_STEP), details, "unleaded", count).ranked,
  );

  // Selecting a row shows the station on the map, with its unleaded price next to the catalog's diesel price.
  const top = productRanking(candidates.slice(0, 2 * PRICE_CHECK_STEP), details, "unleaded", count).ranked[0];
  if (top === undefined) throw new Error("no ranked station");
  const button = page.getByTestId("ranked-row").first().getByRole("button", { name: top.s.name });
  await button.click();
  await expect(button).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("popup-product")).toHaveText(`Unleaded $${top.price.toFixed(3)}`);
  await expect(page.getByTestId("station-popup")).toContainText(`Diesel $${Number(top.s.price).toFixed(3)}`);
  await expectLoaded(page);
});

test("DEF near a point: stations whose detail has no DEF price are listed as such, the others ranked", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.skip(profile !== "alternative", "the primary station detail gives one price: no product filter");
  test.setTimeout(90_000);
  const key = demoKeys["demo-full"];
  const radius = 50;
  const checked = nearestFirst(await sandboxCatalog(page, profile, key), CHICAGO, radius).slice(0, PRICE_CHECK_STEP);
  const details = await sandboxDetails(
    page,
    profile,
    key,
    checked.map((x) => x.s.id),
  );
  const expected = productRanking(checked, details, "def", 10);
  expect(expected.without.length, "the test needs a station without DEF among the nearest").toBeGreaterThan(0);

  // A shared link: the product and the point come from the URL.
  await openStations(page, `?product=def&near=${String(CHICAGO.lat)},${String(CHICAGO.lng)}&radius=${String(radius)}`);
  await expect(page.getByRole("combobox", { name: "Product" })).toHaveValue("def");
  await expect(page.getByTestId("price-check-status")).toContainText(
    `DEF prices checked at the ${String(PRICE_CHECK_STEP)} nearest`,
    { timeout: 30_000 },
  );
  await expectRanked(page, expected.ranked);
  const unpriced = page.getByTestId("unpriced-row");
  await expect(unpriced).toHaveCount(expected.without.length);
  expect(await unpriced.evaluateAll((els) => els.map((el) => el.getAttribute("data-station-id")))).toEqual(
    expected.without.map((x) => x.s.id),
  );
  expect(await page.getByTestId("unpriced-label").allTextContents()).toEqual(expected.without.map(() => "No DEF"));
  await expect(page.getByTestId("price-check-results")).toContainText(
    `${String(expected.without.length)} ${expected.without.length === 1 ? "station has" : "stations have"} none`,
  );
  // Back to diesel: the catalog's ranking, no price checks.
  await page.getByRole("combobox", { name: "Product" }).selectOption("diesel");
  await expect(page).toHaveURL((url) => !url.searchParams.has("product"));
  await expect(page.getByTestId("price-check-status")).toHaveCount(0);
  await expect(page.getByTestId("legend-product-note")).toHaveCount(0);
});

test("a rate limit during the price checks shows the page's banner, and the checks resume by themselves after the wait", async ({
  page,
  appOrigin,
  profile,
}) => {
  test.skip(profile !== "alternative", "the primary station detail gives one price: no price checks");
  test.setTimeout(150_000);
  // Its own key: the BFF pauses the key a 429 was for, and the other tests' key must not wait.
  await signInThroughApi(page.request, appOrigin, createSandboxKey(profile));
  try {
    await openStations(page, "?product=unleaded", 90_000);
    await expect(page.getByTestId("nearby-summary")).toContainText("compared near a point");
    // Beyond the interactive wait (E2E_INTERACTIVE_WAIT_SECONDS here, 30 s in production) the BFF does not make the
    // person wait behind a spinner: it answers 429 with the wait at once.
    await setSandboxFaults(profile, { rateLimitSeconds: RATE_LIMIT_SECONDS });
    await findNear(page, CHICAGO, 50);
    await expect(page.getByTestId("rate-limit-banner")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Paused by the request limit")).toBeVisible();
    await expect(page.getByTestId("ranked-row")).toHaveCount(0);
    await resetSandboxFaults(profile);
    // After the countdown the page asks again by itself. The 429 also taught the BFF a lower budget for this key
    // (lib/fleet-api learns from every 429), so the checks may go on in smaller steps: resuming is what counts here.
    await expect(page.getByTestId("ranked-row").first()).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId("rate-limit-banner")).toBeHidden();
    await expect(page.getByText("Paused by the request limit")).toBeHidden();
    await expect(page.getByTestId("price-check-status")).toContainText(
      /Unleaded prices checked at|checking unleaded prices/,
    );
  } finally {
    await resetSandboxFaults(profile);
  }
});

test("where the station detail gives one price, there is no product control and a product link falls back to diesel", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.skip(profile !== "primary", "the alternative station detail prices several products");
  // What the sandbox's detail gives (the BFF probes the catalog's first station): one price, no per-product prices.
  const [firstStation] = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  if (firstStation === undefined) throw new Error("empty catalog");
  const detail = (await sandboxDetails(page, profile, demoKeys["demo-full"], [firstStation.id])).get(firstStation.id);
  expect(detail?.prices).toBeUndefined();
  expect(detail?.price).not.toBeUndefined();
  // The page learns the detail's products from the BFF; only after that answer is the absence meaningful.
  const learned = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/locations/products");
  await openStations(page);
  const reply = await learned;
  expect(reply.status()).toBe(200);
  expect(((await reply.json()) as { hasSeveralPrices: boolean }).hasSeveralPrices).toBe(false);
  await expect(page.getByRole("combobox", { name: "Product" })).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: "Brand" })).toBeVisible();

  await openStations(page, `?product=unleaded&near=${String(CHICAGO.lat)},${String(CHICAGO.lng)}&radius=50`);
  await expect(page.getByTestId("product-unavailable")).toContainText("one price per station");
  await expect(page.getByRole("combobox", { name: "Product" })).toHaveCount(0);
  await expect(page.getByTestId("ranked-row").first()).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Price", exact: true })).toBeVisible();
  await expect(page.getByTestId("price-check-status")).toHaveCount(0);
});
