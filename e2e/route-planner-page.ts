// The Route mode of the stations page as e2e/route-planner*.spec.ts drive it: the route the specs plan, the ranking and
// fill plan computed from the sandbox's own catalog with lib/route (the arithmetic the page must show), and readers of
// the page's tables.
import type { Page } from "@playwright/test";

import type { Station } from "@/lib/model";
import {
  type Candidate,
  corridorCandidates,
  DEFAULT_ROUTE_OPTIONS,
  DEFAULT_TRUCK,
  type FillPlan,
  planFills,
  type PricedStation,
  rankCandidates,
  type RankedCandidate,
  type RouteOptions,
  routeThrough,
  shownPlan,
  type TruckProfile,
} from "@/lib/route";

import { expect } from "./fixtures";
import type { SandboxStation } from "./sandbox-stations";

/** Dallas → Amarillo → Denver: a via point, stations along the way, and a plan of more than one stop. */
export const DALLAS = { lat: 32.7767, lng: -96.797 };
export const AMARILLO = { lat: 35.222, lng: -101.8313 };
export const DENVER = { lat: 39.7392, lng: -104.9903 };
/** The ranked rows shown before "Show all" (components/stations/route-tables.tsx). */
export const RANKED_ROWS_SHOWN = 15;

const fmt = (p: { lat: number; lng: number }) => `${p.lat.toFixed(4)},${p.lng.toFixed(4)}`;

/** The page's URL for the route (labels as the page would write them). */
export function routeQuery(extra = ""): string {
  const params = new URLSearchParams({
    mode: "route",
    from: fmt(DALLAS),
    fromPlace: "Dallas, TX",
    to: fmt(DENVER),
    toPlace: "Denver, CO",
    via: fmt(AMARILLO),
    viaPlace: "Amarillo, TX",
  });
  return `?${params.toString()}${extra}`;
}

/** The sandbox's station as the BFF's model has it (the fields lib/route reads). */
export function toStation(s: SandboxStation): Station {
  return {
    id: s.id,
    locNum: s.loc_num,
    name: s.name,
    brand: s.brand,
    address: "",
    city: s.city,
    state: s.state,
    lat: s.lat,
    lng: s.lng,
    price: s.price === null ? null : Number(s.price).toFixed(3),
    priceUpdatedAt: null,
  };
}

export interface ExpectedRoute {
  candidates: Candidate[];
  ranked: RankedCandidate[];
  plan: FillPlan;
}

/** What the page must show for the route over the sandbox's catalog, by the catalog's (diesel) price. */
export function expectedRoute(
  catalog: readonly SandboxStation[],
  points = [DALLAS, AMARILLO, DENVER],
  options: RouteOptions = DEFAULT_ROUTE_OPTIONS,
  truck: TruckProfile = DEFAULT_TRUCK,
): ExpectedRoute {
  const priced: PricedStation[] = catalog
    .filter((s) => s.price !== null)
    .map((s) => ({ station: toStation(s), price: Number(s.price), priceText: String(s.price) }));
  return expectedFromPriced(priced, points, options, truck);
}

export function expectedFromPriced(
  priced: readonly PricedStation[],
  points = [DALLAS, AMARILLO, DENVER],
  options: RouteOptions = DEFAULT_ROUTE_OPTIONS,
  truck: TruckProfile = DEFAULT_TRUCK,
): ExpectedRoute {
  const route = routeThrough(points);
  const candidates = corridorCandidates(route, priced, options);
  // The plan first: each verdict at a stop of the plan is about the gallons the plan buys there (as the page does).
  const plan = planFills(route, candidates, truck, options);
  return { candidates, ranked: rankCandidates(candidates, truck, options, null, plan), plan };
}

const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const tenths = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
export const asMoney = (n: number) => money.format(Number((Math.abs(n) < 0.005 ? 0 : n).toFixed(2)));
export const asTenths = (n: number) => tenths.format(n);
export const asUnitPrice = (n: number) => (Number.isFinite(n) ? `$${n.toFixed(3)}` : "—");

/** The ranked table shows these rows, in this order, with these figures. */
export async function expectRouteRanked(page: Page, ranked: readonly RankedCandidate[]): Promise<void> {
  const shown = ranked.slice(0, RANKED_ROWS_SHOWN);
  const rows = page.getByTestId("route-row");
  await expect(rows).toHaveCount(shown.length, { timeout: 30_000 });
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-station-id")))).toEqual(
    shown.map((c) => c.station.id),
  );
  expect(await page.getByTestId("route-price").allTextContents()).toEqual(shown.map((c) => asUnitPrice(c.price)));
  expect(await page.getByTestId("route-detour-miles").allTextContents()).toEqual(
    shown.map((c) => `${asTenths(c.detourMiles)} mi`),
  );
  expect(await page.getByTestId("route-detour-cost").allTextContents()).toEqual(
    shown.map((c) => asMoney(c.detourCost)),
  );
  expect(await page.getByTestId("route-effective").allTextContents()).toEqual(
    shown.map((c) => asUnitPrice(c.effectivePrice)),
  );
  const verdicts = await page.getByTestId("route-verdict").allTextContents();
  expect(verdicts.map((v, i) => v.startsWith(shown[i]?.verdictText ?? "?"))).toEqual(shown.map(() => true));
}

/** The plan table: its stops in order, and its totals. */
export async function expectPlan(page: Page, plan: FillPlan): Promise<void> {
  expect(plan.feasible, plan.reason ?? "").toBe(true);
  expect(plan.stops.length, "the test route needs a plan with stops").toBeGreaterThan(0);
  const rows = page.getByTestId("route-plan-row");
  await expect(rows).toHaveCount(plan.stops.length);
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-station-id")))).toEqual(
    plan.stops.map((s) => s.candidate.station.id),
  );
  // Every total is the sum of the figures printed above it (lib/route's shownPlan), checked here from the page's text.
  const shown = shownPlan(plan);
  const cents = (texts: string[]) =>
    texts.reduce((sum, t) => sum + Math.round(Number(t.replace(/[$,]/g, "")) * 100), 0);
  const tenthsOf = (texts: string[]) => texts.reduce((sum, t) => sum + Math.round(Number(t.replace(/,/g, "")) * 10), 0);
  const rowCosts = await page.getByTestId("route-plan-cost").allTextContents();
  const rowDetours = await page.getByTestId("route-plan-stop-detour").allTextContents();
  expect(rowCosts).toEqual(shown.stops.map((s) => asMoney(s.costCents / 100)));
  await expect(page.getByTestId("route-plan-gallons")).toHaveText(asTenths(shown.gallonsTenths / 10));
  expect(tenthsOf(await page.getByTestId("route-plan-buy").allTextContents())).toBe(shown.gallonsTenths);
  await expect(page.getByTestId("route-plan-fuel-cost")).toHaveText(asMoney(cents(rowCosts) / 100));
  await expect(page.getByTestId("route-plan-detour-cost")).toHaveText(asMoney(cents(rowDetours) / 100));
  const total = (cents(rowCosts) + cents(rowDetours)) / 100;
  await expect(page.getByTestId("route-plan-totals")).toContainText(`Total (${asMoney(total)} with detours)`);
}
