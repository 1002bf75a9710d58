import type { ProductClass } from "@/lib/model/product-classes";

import { contextOf, gallons, localDate, localMoment, percent } from "./describe";
import { classOf, gallonsByClass } from "./history";
import { isFill } from "./rules-frequency";
import type { RawHit, RuleInput, RuleOutcome, TruckHistory } from "./types";

/** Nearest-rank percentile of ascending values (p in (0, 100]): a value the truck really filled, never interpolated. */
export function percentileOf(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? 0;
}

export function medianOf(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid] ?? 0;
  return ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** A truck's history gallons by product class (what the two rules below compare a fill with). */
export type TruckClasses = (truckId: string) => ReadonlyMap<ProductClass, readonly number[]>;

/**
 * Each truck's history gallons by product class, worked out once per truck (trucks only: a purchase with no truck has
 * no "usual" to compare with).
 */
function classesOf(history: TruckHistory): TruckClasses {
  const byTruck = new Map<string, Map<ProductClass, number[]>>();
  return (truckId) => {
    let classes = byTruck.get(truckId);
    if (classes === undefined) byTruck.set(truckId, (classes = gallonsByClass(history.get(truckId))));
    return classes;
  };
}
/** How a class reads in a sentence. */
const CLASS_WORDS: Record<ProductClass, string> = {
  diesel: "diesel",
  unleaded: "unleaded",
  other: "other fuel",
  def: "DEF",
};
const FUEL_CLASSES = (Object.keys(CLASS_WORDS) as ProductClass[]).filter((c) => c !== "def");

/**
 * A fill larger than the truck's usual for that product: above both its history's percentile (default the 99th) and
 * a multiple of its median (default 1.5 ×) — the larger of the two is the limit, so neither a spread-out history nor
 * a tight one flags ordinary fills. Needs at least `historyMinFills` earlier fills of that product.
 */
export function largeFill(input: RuleInput): RuleOutcome {
  return largeFillOf(input, classesOf(input.history));
}

/** largeFill over the trucks' gallons by class however they were gathered (the property test gathers them per fill). */
export function largeFillOf({ purchases, thresholds }: Omit<RuleInput, "history">, classes: TruckClasses): RuleOutcome {
  const limits = new Map<string, { percentile: number; median: number; limit: number; n: number } | null>();
  const limitOf = (truckId: string, productClass: ProductClass) => {
    const key = `${truckId}\u0000${productClass}`;
    if (limits.has(key)) return limits.get(key) ?? null;
    const sorted = [...(classes(truckId).get(productClass) ?? [])].sort((a, b) => a - b);
    let entry = null;
    if (sorted.length >= thresholds.historyMinFills && sorted.length > 0) {
      const percentile = percentileOf(sorted, thresholds.largeFillPercentile);
      const median = medianOf(sorted);
      const limit = Math.max(percentile, (median * thresholds.largeFillMedianPercent) / 100);
      entry = { percentile, median, limit, n: sorted.length };
    }
    limits.set(key, entry);
    return entry;
  };
  const hits: RawHit[] = [];
  let short = 0;
  for (const p of purchases) {
    if (!isFill(p) || p.truckId === null) continue;
    const usual = limitOf(p.truckId, classOf(p.product));
    if (usual === null) {
      short++;
      continue;
    }
    if (p.gallonsMilli <= usual.limit) continue;
    const multiple = (thresholds.largeFillMedianPercent / 100).toString();
    hits.push({
      rule: "large-fill",
      sentence: () =>
        `${gallons(p.gallonsMilli)} of ${p.product} on truck ${p.truckId} (${localMoment(p)} local time), above its usual: ${ordinal(thresholds.largeFillPercentile)} percentile ${gallons(usual.percentile)}, ${multiple} × median ${gallons(usual.median)} over ${String(usual.n)} earlier fills.`,
      atMs: p.atMs,
      localDate: localDate(p),
      transactionIds: [p.id],
      context: contextOf([p], { truck: p.truckId }, `Purchases for truck ${p.truckId} that day`),
    });
  }
  return { hits, notJudged: short === 0 ? null : notJudged(short, thresholds.historyMinFills, thresholds.historyDays) };
}

const notJudged = (n: number, min: number, days: number) =>
  `${String(n)} ${n === 1 ? "fill was" : "fills were"} not judged: the truck had fewer than ${String(min)} earlier fills of that product in the ${String(days)} days before the period.`;

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${String(n)}th`;
  const suffix = ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
  return `${String(n)}${suffix}`;
}

/**
 * A product the truck hardly ever takes (unleaded in a diesel truck): its share of the truck's earlier fills is below
 * `unusualProductMaxPercent` (default 2 %), judged on at least `historyMinFills` fills.
 */
export function unusualProduct(input: RuleInput): RuleOutcome {
  return unusualProductOf(input, classesOf(input.history));
}

/** unusualProduct over the trucks' gallons by class however they were gathered. */
export function unusualProductOf(
  { purchases, thresholds }: Omit<RuleInput, "history">,
  classes: TruckClasses,
): RuleOutcome {
  const mixes = new Map<string, { counts: Map<ProductClass, number>; n: number } | null>();
  // The mix of fuel fills: DEF bought on its own is not a fuel the truck takes (def-without-diesel judges it).
  const mixOf = (truckId: string) => {
    if (mixes.has(truckId)) return mixes.get(truckId) ?? null;
    const counts = new Map<ProductClass, number>();
    // In the classes' own order (CLASS_WORDS), so a tie in the sentence's "usual" reads the same every time.
    for (const productClass of FUEL_CLASSES) {
      const n = classes(truckId).get(productClass)?.length ?? 0;
      if (n > 0) counts.set(productClass, n);
    }
    const n = [...counts.values()].reduce((sum, c) => sum + c, 0);
    let mix = null;
    if (n >= thresholds.historyMinFills && n > 0) mix = { counts, n };
    mixes.set(truckId, mix);
    return mix;
  };
  const hits: RawHit[] = [];
  let short = 0;
  for (const p of purchases) {
    if (!isFill(p) || p.truckId === null) continue;
    const productClass = classOf(p.product);
    if (productClass === "def") continue;
    const mix = mixOf(p.truckId);
    if (mix === null) {
      short++;
      continue;
    }
    const share = ((mix.counts.get(productClass) ?? 0) * 100) / mix.n;
    if (share >= thresholds.unusualProductMaxPercent) continue;
    const usual = () =>
      [...mix.counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 2)
        .map(([c, n]) => `${percent((n * 100) / mix.n)} ${CLASS_WORDS[c]}`)
        .join(", ");
    hits.push({
      rule: "unusual-product",
      sentence: () =>
        `${gallons(p.gallonsMilli)} of ${p.product} for truck ${p.truckId} (${localMoment(p)} local time), whose ${String(mix.n)} earlier fills were ${usual()} (${CLASS_WORDS[productClass]}: ${percent(share)}).`,
      atMs: p.atMs,
      localDate: localDate(p),
      transactionIds: [p.id],
      context: contextOf([p], { truck: p.truckId }, `Purchases for truck ${p.truckId} that day`),
    });
  }
  return {
    hits,
    notJudged:
      short === 0
        ? null
        : `${String(short)} ${short === 1 ? "fill was" : "fills were"} not judged: the truck had fewer than ${String(thresholds.historyMinFills)} earlier fills in the ${String(thresholds.historyDays)} days before the period.`,
  };
}
