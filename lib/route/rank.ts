import { formatMoney } from "@/lib/format/numbers";

import type { Candidate } from "./corridor";
import { checkOptions, checkTruck, type RouteOptions, type TruckProfile } from "./options";

export interface RankedCandidate extends Candidate {
  /** False when the truck, not stopping before, would reach the station under its reserve (a stop before fixes it). */
  reachable: boolean;
  /** What the truck would buy there: the tank filled from the fuel it arrives with (0 when it would arrive full). */
  gallons: number;
  /** The detour's fuel at this station's price plus its time at the driver's hourly value, in dollars. */
  detourCost: number;
  /** (price × gallons + detour cost) ÷ gallons: the price per gallon with the detour paid; Infinity if 0 gallons. */
  effectivePrice: number;
  /** Dollars saved against buying the same gallons at the baseline's effective price (negative: a loss). */
  netSavings: number;
  verdict: "worth" | "not_worth" | "baseline";
  verdictText: string;
}

/**
 * A station counts as on the route when it is at most this far off the great-circle path: half a mile is a station at
 * an exit of the road the line stands for. The best (lowest effective price) reachable one is the baseline every other
 * station is judged against: "is it worth leaving the road for?".
 */
export const ON_ROUTE_MILES = 0.5;

/** Fuel the truck holds on arriving at the candidate without stopping before (it may be negative: not reachable). */
function arrivalGallons(c: Candidate, truck: TruckProfile): number {
  return truck.fuelNowGallons - (c.alongMiles + c.detourMiles / 2) / truck.mpg;
}

/**
 * The detour's cost: its fuel plus its time at the driver's hourly value. Its fuel is the truck's fuel: at the
 * station's price, or at `detourFuelPrice` when the product bought is not what the truck burns (DEF).
 */
function detourCostOf(c: Candidate, truck: TruckProfile, detourFuelPrice: number | null): number {
  return (c.detourMiles / truck.mpg) * (detourFuelPrice ?? c.price) + c.detourHours * truck.hourlyValue;
}

type Priced = Omit<RankedCandidate, "netSavings" | "verdict" | "verdictText">;

function priceOne(c: Candidate, truck: TruckProfile, detourFuelPrice: number | null): Priced {
  const arrive = arrivalGallons(c, truck);
  const reachable = arrive >= truck.reserveGallons;
  const gallons = Math.max(0, truck.tankGallons - Math.max(0, arrive));
  const detourCost = detourCostOf(c, truck, detourFuelPrice);
  // Nothing to buy (the tank would be full): no price per gallon, ranked after every station with one.
  const effectivePrice = gallons > 0 ? (c.price * gallons + detourCost) / gallons : Infinity;
  return { ...c, reachable, gallons, detourCost, effectivePrice };
}

/** Reachable first, then the lowest effective price, then route order (miles along, loc number). */
function byRank(a: Priced, b: Priced): number {
  return (
    Number(b.reachable) - Number(a.reachable) ||
    a.effectivePrice - b.effectivePrice ||
    a.alongMiles - b.alongMiles ||
    a.station.locNum.localeCompare(b.station.locNum)
  );
}

/**
 * The baseline: the best reachable station on the route (≤ ON_ROUTE_MILES off). With none on the route, the reachable
 * station nearest to the path (the stop a driver makes without a planner), the cheaper on a tie; null when nothing
 * is reachable.
 */
function baselineOf(sorted: readonly Priced[]): Priced | null {
  // A station where the truck would buy nothing (arriving full) has no price per gallon to compare with.
  const reachable = sorted.filter((c) => c.reachable && c.gallons > 0);
  const onRoute = reachable.find((c) => c.offMiles <= ON_ROUTE_MILES);
  if (onRoute) return onRoute;
  let nearest: Priced | null = null;
  for (const c of reachable) if (nearest === null || c.offMiles < nearest.offMiles) nearest = c;
  return nearest;
}

function judge(c: Priced, baseline: Priced | null): RankedCandidate {
  if (!c.reachable)
    return {
      ...c,
      netSavings: 0,
      verdict: "not_worth",
      // Reachable means without stopping first: a stop before it makes it usable (the plan may well use it).
      verdictText: "beyond the fuel in the tank now: fill before it (see the plan)",
    };
  if (c.gallons <= 0)
    return { ...c, netSavings: 0, verdict: "not_worth", verdictText: "not worth it: the tank would still be full" };
  // A reachable station with gallons to buy means a baseline exists (it is one of them).
  if (baseline === null || c === baseline) {
    const verdictText =
      c.offMiles <= ON_ROUTE_MILES
        ? "baseline: the best stop on the route"
        : "baseline: the nearest stop to the route (none on it)";
    return { ...c, netSavings: 0, verdict: "baseline", verdictText };
  }
  const netSavings = c.gallons * baseline.effectivePrice - (c.price * c.gallons + c.detourCost);
  // Cents decide: a saving that rounds to $0.00 is not one.
  if (Math.round(netSavings * 100) > 0)
    return {
      ...c,
      netSavings,
      verdict: "worth",
      verdictText: `worth it: saves ${formatMoney(netSavings.toFixed(2))} net`,
    };
  const verdictText =
    c.price < baseline.effectivePrice
      ? "not worth it: the detour costs more than it saves"
      : "not worth it: no cheaper than the baseline";
  return { ...c, netSavings, verdict: "not_worth", verdictText };
}

/**
 * Ranks corridor candidates by effective price for the gallons the truck would buy there (filling the tank from what
 * it arrives with, not stopping before), with a verdict against the baseline (see `baselineOf`). Stations the truck
 * cannot reach above its reserve are flagged and ranked after every reachable one. `detourFuelPrice`: the price of the
 * truck's fuel for the detour when the candidates' price is of another product (DEF); null: the candidate's price.
 */
export function rankCandidates(
  cands: readonly Candidate[],
  truck: TruckProfile,
  options: RouteOptions,
  detourFuelPrice: number | null = null,
): RankedCandidate[] {
  checkOptions(options);
  checkTruck(truck);
  if (detourFuelPrice !== null && !(Number.isFinite(detourFuelPrice) && detourFuelPrice >= 0))
    throw new RangeError("the detour's fuel price must be $0 or more");
  const sorted = cands.map((c) => priceOne(c, truck, detourFuelPrice)).sort(byRank);
  const baseline = baselineOf(sorted);
  return sorted.map((c) => judge(c, baseline));
}
