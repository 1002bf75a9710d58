import type { Candidate } from "./corridor";
import { checkOptions, checkTruck, type RouteOptions, type TruckProfile } from "./options";
import type { FillPlan } from "./plan";
import { detourCostsMoreText, type GallonsBasis, planStopBeyondText, VERDICT, worthText } from "./wording";

export interface RankedCandidate extends Candidate {
  /** False when the truck, not stopping before, would reach the station under its reserve (a stop before fixes it). */
  reachable: boolean;
  /**
   * What the truck buys there: at a stop of the fill plan, what the plan buys; elsewhere the tank filled from the fuel
   * it arrives with, not stopping before (0 when it would arrive full). `gallonsBasis` says which.
   */
  gallons: number;
  gallonsBasis: GallonsBasis;
  /** The stop's number in the fill plan (1 = first), null when the plan does not stop here (or there is none). */
  planStop: number | null;
  /** The detour's fuel at this station's price plus its time at the driver's hourly value, in dollars. */
  detourCost: number;
  /**
   * (price × G + detour cost) ÷ G for G a full tank from what the truck arrives with (every row on one basis, so the
   * ranking compares like with like): the price per gallon with the detour paid; Infinity if G is 0.
   */
  effectivePrice: number;
  /**
   * Dollars saved against buying the same gallons at the baseline, its detour paid (negative: a loss): gallons ×
   * (baseline's price − this price) + the baseline's detour cost − this detour cost. Like with like: the same gallons
   * on both sides.
   */
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

/** Below this a purchase is float noise, not fuel. */
const GALLON_SLACK = 1e-6;

/** The plan's purchase at each of its stops, by station id: what the verdict there is about. */
interface PlanBuy {
  gallons: number;
  stop: number;
}

function planBuys(plan: FillPlan | null): Map<string, PlanBuy> {
  const buys = new Map<string, PlanBuy>();
  if (!plan?.feasible) return buys;
  plan.stops.forEach((s, i) => {
    // A stop buying nothing (the plan's rare "arrive with enough") has no purchase to judge: a full tank instead.
    if (s.buyGallons > GALLON_SLACK) buys.set(s.candidate.station.id, { gallons: s.buyGallons, stop: i + 1 });
  });
  return buys;
}

function priceOne(c: Candidate, truck: TruckProfile, detourFuelPrice: number | null, buy: PlanBuy | undefined): Priced {
  const arrive = arrivalGallons(c, truck);
  const reachable = arrive >= truck.reserveGallons;
  const fullTank = Math.max(0, truck.tankGallons - Math.max(0, arrive));
  const gallons = buy?.gallons ?? fullTank;
  const detourCost = detourCostOf(c, truck, detourFuelPrice);
  // One basis for every row, so the ranking compares like with like: a full tank from what the truck arrives with.
  // Nothing to buy (the tank would be full): no price per gallon, ranked after every station with one.
  const effectivePrice = fullTank > 0 ? (c.price * fullTank + detourCost) / fullTank : Infinity;
  const gallonsBasis: GallonsBasis = buy === undefined ? "full_tank" : "plan";
  return { ...c, reachable, gallons, gallonsBasis, planStop: buy?.stop ?? null, detourCost, effectivePrice };
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
  const reachable = sorted.filter((c) => c.reachable && Number.isFinite(c.effectivePrice));
  const onRoute = reachable.find((c) => c.offMiles <= ON_ROUTE_MILES);
  if (onRoute) return onRoute;
  let nearest: Priced | null = null;
  for (const c of reachable) if (nearest === null || c.offMiles < nearest.offMiles) nearest = c;
  return nearest;
}

function judge(c: Priced, baseline: Priced | null, hasPlan: boolean): RankedCandidate {
  const verdictOf = (verdict: RankedCandidate["verdict"], verdictText: string, netSavings = 0): RankedCandidate => ({
    ...c,
    netSavings,
    verdict,
    verdictText,
  });
  if (!c.reachable) {
    // Reachable means without stopping first: the plan's own figure where it stops, else "fill before it" (pointing
    // at the plan only when there is one).
    if (c.planStop !== null) return verdictOf("not_worth", planStopBeyondText(c.planStop, c.gallons));
    return verdictOf("not_worth", hasPlan ? VERDICT.beyondSeePlan : VERDICT.beyondNoPlan);
  }
  if (c.gallons <= 0) return verdictOf("not_worth", VERDICT.tankFull);
  // A reachable station with gallons to buy means a baseline exists (it is one of them).
  if (baseline === null || c === baseline)
    return verdictOf("baseline", c.offMiles <= ON_ROUTE_MILES ? VERDICT.baselineOnRoute : VERDICT.baselineNearest);
  const netSavings = c.gallons * (baseline.price - c.price) + baseline.detourCost - c.detourCost;
  // Cents decide: a saving that rounds to $0.00 is not one.
  if (Math.round(netSavings * 100) > 0)
    return verdictOf("worth", worthText(netSavings, c.gallons, c.gallonsBasis), netSavings);
  // One wording per reason: cheaper at the pump (the detour eats the saving), or not cheaper at all.
  const text = c.price < baseline.price ? detourCostsMoreText(c.gallons, c.gallonsBasis) : VERDICT.noCheaper;
  return verdictOf("not_worth", text, netSavings);
}

/**
 * Ranks corridor candidates by effective price for a full tank there (filled from what the truck arrives with, not
 * stopping before), with a verdict against the baseline (see `baselineOf`) on the gallons `plan` buys at its stops —
 * a full tank elsewhere — that states those gallons. Stations the truck cannot reach above its reserve are flagged and
 * ranked after every reachable one. `detourFuelPrice`: the price of the truck's fuel for the detour when the
 * candidates' price is of another product (DEF); null: the candidate's price. `plan`: the fill plan over the same
 * candidates (null: none is made, as for DEF); no verdict refers to a plan unless it is feasible.
 */
export function rankCandidates(
  cands: readonly Candidate[],
  truck: TruckProfile,
  options: RouteOptions,
  detourFuelPrice: number | null = null,
  plan: FillPlan | null = null,
): RankedCandidate[] {
  checkOptions(options);
  checkTruck(truck);
  if (detourFuelPrice !== null && !(Number.isFinite(detourFuelPrice) && detourFuelPrice >= 0))
    throw new RangeError("the detour's fuel price must be $0 or more");
  const buys = planBuys(plan);
  const sorted = cands.map((c) => priceOne(c, truck, detourFuelPrice, buys.get(c.station.id))).sort(byRank);
  const baseline = baselineOf(sorted);
  const hasPlan = plan?.feasible === true;
  return sorted.map((c) => judge(c, baseline, hasPlan));
}
