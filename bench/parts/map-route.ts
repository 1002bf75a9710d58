/**
 * Part 6, route planner (issue 18's figures): the Route mode's computation — corridor candidates, their ranking and
 * the fill plan (lib/route) — for a route of about 1,500 miles over the catalogs of 2,500 and 50,000 stations the
 * bench's seeded sandboxes serve (the same generator and seed; the catalog's diesel price before the customer's fee).
 * Timed in this Node process: the same V8 engine as Chromium, without the page around it. Printed, not asserted.
 */
import {
  type Candidate,
  corridorCandidates,
  DEFAULT_ROUTE_OPTIONS,
  DEFAULT_TRUCK,
  type FillPlan,
  planFills,
  type PricedStation,
  rankCandidates,
  routeThrough,
} from "@/lib/route";
import { createRng } from "@/sandbox/db/rng";
import { DEFAULT_SEED } from "@/sandbox/db/seed";
import { generateStations } from "@/sandbox/db/stations";

import type { BenchContext } from "../lib/context";
import { median } from "../lib/report";

/** Los Angeles → Albuquerque → Oklahoma City → Little Rock: the I-40 corridor, ≈ 1,480 great-circle miles. */
const ROUTE = routeThrough([
  { lat: 34.0522, lng: -118.2437 },
  { lat: 35.0844, lng: -106.6504 },
  { lat: 35.4676, lng: -97.5164 },
  { lat: 34.7465, lng: -92.2896 },
]);
const CASES = { default: [2_500, 50_000], smoke: [2_500] };
const GOAL_MS: Readonly<Record<number, number>> = { 2_500: 50, 50_000: 300 };
const RUNS = { default: 15, smoke: 3 };
const WARM_UPS = 3;
const ANCHOR = new Date("2026-11-01T00:00:00Z");

/** The seeded catalog of `count` stations, priced with its diesel price. */
function catalog(count: number): PricedStation[] {
  return generateStations(createRng(DEFAULT_SEED), count, ANCHOR).map((s) => {
    const price = s.prices.diesel / 1000;
    const priceText = price.toFixed(3);
    return {
      station: { ...s, price: priceText, priceUpdatedAt: s.priceUpdatedAt },
      price,
      priceText,
    };
  });
}

interface Run {
  ms: number;
  candidates: Candidate[];
  plan: FillPlan;
}

/** One Route mode computation, as the page does it after the catalog arrived. */
function once(stations: readonly PricedStation[]): Run {
  const started = performance.now();
  const candidates = corridorCandidates(ROUTE, stations, DEFAULT_ROUTE_OPTIONS);
  rankCandidates(candidates, DEFAULT_TRUCK, DEFAULT_ROUTE_OPTIONS);
  const plan = planFills(ROUTE, candidates, DEFAULT_TRUCK, DEFAULT_ROUTE_OPTIONS);
  return { ms: performance.now() - started, candidates, plan };
}

export function measureRoutePlanner(ctx: BenchContext): void {
  const size = ctx.options.smoke ? "smoke" : "default";
  for (const count of CASES[size]) {
    const stations = catalog(count);
    for (let i = 0; i < WARM_UPS; i++) once(stations);
    const runs = Array.from({ length: RUNS[size] }, () => once(stations));
    const last = runs.at(-1);
    if (!last) throw new Error("no run of the route planner");
    const { plan, candidates } = last;
    const planText = plan.feasible
      ? `plan: ${String(plan.stops.length)} stops, $${plan.totalCost.toFixed(2)}`
      : `no plan: ${plan.reason ?? ""}`;
    ctx.add({
      part: "map",
      name: `Route planner, ${Math.round(ROUTE.totalMiles).toLocaleString("en-US")}-mile route over ${count.toLocaleString("en-US")} stations: candidates + ranking + plan`,
      value: Math.round(median(runs.map((r) => r.ms)) * 10) / 10,
      unit: "ms",
      goal: { op: "<=", target: GOAL_MS[count] ?? 300 },
      note: `median of ${String(runs.length)} runs after ${String(WARM_UPS)} warm-ups, max ${Math.max(...runs.map((r) => r.ms)).toFixed(1)} ms; ${String(candidates.length)} candidates within ${String(DEFAULT_ROUTE_OPTIONS.corridorMiles)} mi, ${planText}; default truck (lib/route); Node ${process.version} (V8, as Chromium), not in the page`,
    });
  }
}
