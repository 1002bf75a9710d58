import type { CatalogStation } from "@/lib/mirror";
import { fromMinorUnits } from "@/lib/model";
import type { MissedSaving, SavingsFigures } from "@/lib/model/insight-savings";
import { classifyProduct } from "@/lib/model/product-classes";

import type { ObservedPrices } from "./price-observations";
import { Comparer, type Comparison } from "./savings-compare";
import { dollars, TopMissed } from "./savings-top";
import type { SavingsFill } from "./savings-types";

/**
 * What the fleet could have saved (issue 16 item 4, issue 25 item 3), computed exactly: per completed diesel fill, the
 * cheapest customer price observed within the window around the fill's instant (lib/insights/price-observations) at
 * the OTHER catalog stations within `radiusMiles` (great-circle), and the median of the state's observed prices. A
 * fill with no such observation is "not compared" and counted by why; never is an older fill compared with today's
 * price. Savings are Σ max(0, paid − cheapest) × gallons in integer micro-dollars (thousandths of a dollar ×
 * thousandths of a gallon), rounded half up to cents once, at the end. The same observations answer "was the customer
 * price applied?": each fill's price against its own station's observed price at that time.
 */

const TOP_MISSED = 10;

/** The catalog prices diesel only ("diesel", "Diesel #2", "ULSD", …; not DEF): other products are not compared. */
const isComparedProduct = (product: string): boolean => classifyProduct(product).productClass === "diesel";

class FillCount {
  fills = 0;
  gallons = 0n;
  add(fill: SavingsFill): void {
    this.fills++;
    this.gallons += BigInt(fill.gallonsMilli);
  }
  figure(): { fills: number; gallons: string } {
    return { fills: this.fills, gallons: fromMinorUnits(this.gallons, 3) };
  }
}

/** How the comparisons are made: the radius of "nearby" and the window around a fill's instant. */
export interface SavingsParams {
  radiusMiles: number;
  windowMs: number;
}

/** Why a fill was or was not compared (the stored comparison's `kind`, lib/insights/savings-stored). */
export const FILL_KIND = {
  compared: 0,
  noObservation: 1,
  noOtherStation: 2,
  unknownStation: 3,
  otherProduct: 4,
} as const;
type FillKind = (typeof FILL_KIND)[keyof typeof FILL_KIND];

/** One fill's judgement: every figure it adds to, in integer micro-dollars (0 when it adds nothing). */
export interface FillJudgement {
  kind: FillKind;
  /** Its station's own observed price was found (null: a fill never checked, i.e. another product or station). */
  ownChecked: boolean | null;
  /** Paid more than its own station's observed price (even with 0 gallons: counted, adding 0). */
  aboveOwn: boolean;
  aboveOwnMicro: number;
  /** Another station's observed price was lower. */
  saving: boolean;
  savedMicro: number;
  aboveMedian: boolean;
  aboveMedianMicro: number;
  comparison: Comparison | null;
}

const NOTHING = {
  aboveOwn: false,
  aboveOwnMicro: 0,
  saving: false,
  savedMicro: 0,
  aboveMedian: false,
  aboveMedianMicro: 0,
} as const;

/** What one completed fill adds to the savings figures (the loop body of computeSavings, also what is stored). */
export function judgeFill(
  comparer: Comparer,
  fill: Pick<SavingsFill, "product" | "stationId" | "atMs" | "priceMilli" | "gallonsMilli">,
): FillJudgement {
  const none = { ownChecked: null, ...NOTHING, comparison: null };
  if (!isComparedProduct(fill.product)) return { kind: FILL_KIND.otherProduct, ...none };
  const origin = comparer.station(fill.stationId);
  if (!origin) return { kind: FILL_KIND.unknownStation, ...none };
  const own = comparer.ownPrice(origin.id, fill.atMs);
  // ≤ 10⁴ thousandths of a dollar × ≤ 10⁶ thousandths of a gallon: exact as a Number, summed as a BigInt.
  const above = (than: number | null) => than !== null && fill.priceMilli > than;
  const micro = (than: number | null) => (above(than) ? (fill.priceMilli - (than ?? 0)) * fill.gallonsMilli : 0);
  const ownMilli = own?.priceMilli ?? null;
  const ownPart = { ownChecked: own !== null, aboveOwn: above(ownMilli), aboveOwnMicro: micro(ownMilli) };
  const comparison = comparer.compare(origin, fill.atMs);
  if (comparison.cheapest === null) {
    const kind = comparison.alone ? FILL_KIND.noOtherStation : FILL_KIND.noObservation;
    return { kind, ...NOTHING, ...ownPart, comparison };
  }
  const cheapest = comparison.cheapest.observed.priceMilli;
  const median = comparison.medianMilli;
  return {
    kind: FILL_KIND.compared,
    ...ownPart,
    saving: above(cheapest),
    savedMicro: micro(cheapest),
    aboveMedian: above(median),
    aboveMedianMicro: micro(median),
    comparison,
  };
}

/** The savings figures of a set of completed fills, and the largest missed savings (largest first, at most `topN`). */
export function computeSavings(
  fills: Iterable<SavingsFill>,
  catalog: { stations: readonly CatalogStation[]; observed: ObservedPrices },
  params: SavingsParams,
  topN = TOP_MISSED,
): { figures: SavingsFigures; top: MissedSaving[] } {
  const comparer = new Comparer(catalog.stations, catalog.observed, params.radiusMiles, params.windowMs);
  let considered = 0;
  const compared = new FillCount();
  let saved = 0n;
  let withSaving = 0;
  let aboveMedian = 0n;
  let withAboveMedian = 0;
  const noObservation = new FillCount();
  const noOtherStation = new FillCount();
  const unknown = new FillCount();
  const other = new FillCount();
  const applied = { checked: 0, notChecked: 0, above: 0, extra: 0n };
  const top = new TopMissed(topN);
  const counts = [compared, noObservation, noOtherStation, unknown, other] as const;

  for (const fill of fills) {
    considered++;
    const j = judgeFill(comparer, fill);
    counts[j.kind].add(fill);
    if (j.ownChecked === true) {
      applied.checked++;
      if (j.aboveOwn) {
        applied.above++;
        applied.extra += BigInt(j.aboveOwnMicro);
      }
    } else if (j.ownChecked === false) applied.notChecked++;
    if (j.saving && j.comparison !== null) {
      saved += BigInt(j.savedMicro);
      withSaving++;
      top.offer(j.savedMicro, fill, j.comparison);
    }
    if (j.aboveMedian) {
      aboveMedian += BigInt(j.aboveMedianMicro);
      withAboveMedian++;
    }
  }

  return {
    figures: {
      considered,
      fills: compared.fills,
      gallons: fromMinorUnits(compared.gallons, 3),
      couldHaveSaved: dollars(saved),
      fillsWithSaving: withSaving,
      aboveStateMedian: dollars(aboveMedian),
      fillsAboveStateMedian: withAboveMedian,
      notCompared: { noObservation: noObservation.figure(), noOtherStation: noOtherStation.figure() },
      unknownStation: unknown.figure(),
      otherProduct: other.figure(),
      priceApplied: {
        checked: applied.checked,
        notChecked: applied.notChecked,
        fillsAbove: applied.above,
        paidAbove: dollars(applied.extra),
      },
    },
    top: top.list(),
  };
}

/** Figures of nothing (a period the mirror does not cover yet). */
export const NO_SAVINGS: SavingsFigures = computeSavings(
  [],
  { stations: [], observed: new Map() },
  { radiusMiles: 0, windowMs: 0 },
).figures;
