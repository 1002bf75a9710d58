import type { FillPlan } from "./plan";

/**
 * The fill plan's figures as the page prints them, so that its totals add up as shown (issue 25, item 5): each stop's
 * gallons in tenths and dollars in cents, rounded once, and every total the sum of the rounded figures above it. The
 * plan itself keeps exact figures (its optimality is checked on them); only what a person reads is rounded.
 */
export interface ShownStop {
  /** Gallons bought, in tenths of a gallon. */
  buyTenths: number;
  /** The fuel's cost and the detour's time, in cents. */
  costCents: number;
  detourCents: number;
}

interface ShownPlan {
  stops: ShownStop[];
  gallonsTenths: number;
  fuelCents: number;
  detourCents: number;
  /** fuelCents + detourCents: the total printed is the sum of the two printed beside it. */
  totalCents: number;
}

/** Half-up to the nearest unit of `scale`, with slack for binary fractions (1.005 × 100 is 100.49999…). */
function roundTo(value: number, scale: number): number {
  return Math.round(value * scale + Math.sign(value) * 1e-7);
}

export function shownPlan(plan: FillPlan): ShownPlan {
  const stops = plan.stops.map((s): ShownStop => ({
    buyTenths: roundTo(s.buyGallons, 10),
    costCents: roundTo(s.cost, 100),
    detourCents: roundTo(s.detourCost, 100),
  }));
  const sum = (pick: (s: ShownStop) => number) => stops.reduce((total, s) => total + pick(s), 0);
  const fuelCents = sum((s) => s.costCents);
  const detourCents = sum((s) => s.detourCents);
  return { stops, gallonsTenths: sum((s) => s.buyTenths), fuelCents, detourCents, totalCents: fuelCents + detourCents };
}
