import type { CatalogStation } from "@/lib/mirror/catalog";
import { fromMinorUnits } from "@/lib/model";
import type { MissedSaving, SavingsFigures } from "@/lib/model/insight-savings";
import { classifyProduct } from "@/lib/model/product-classes";

import type { ObservedPrices } from "./price-observations";
import { Comparer } from "./savings-compare";
import { dollars, TopMissed } from "./savings-top";

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

/** One completed fill as the mirror holds it, with its purchase-local date. */
export interface SavingsFill {
  id: string;
  /** The fill's details below are read for the largest missed savings only (savingsFor); "" until then. */
  reference: string;
  atMs: number;
  offsetMin: number | null;
  localDate: string;
  stationId: string;
  stationName: string;
  stationCity: string;
  stationState: string;
  driverId: string;
  driverName: string;
  product: string;
  gallonsMilli: number;
  priceMilli: number;
}

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

  for (const fill of fills) {
    considered++;
    if (!isComparedProduct(fill.product)) {
      other.add(fill);
      continue;
    }
    const origin = comparer.station(fill.stationId);
    if (!origin) {
      unknown.add(fill);
      continue;
    }
    const own = comparer.ownPrice(origin.id, fill.atMs);
    if (own === null) applied.notChecked++;
    else {
      applied.checked++;
      if (fill.priceMilli > own.priceMilli) {
        applied.above++;
        applied.extra += BigInt((fill.priceMilli - own.priceMilli) * fill.gallonsMilli);
      }
    }
    const comparison = comparer.compare(origin, fill.atMs);
    if (comparison.cheapest === null) {
      (comparison.alone ? noOtherStation : noObservation).add(fill);
      continue;
    }
    compared.add(fill);
    const cheapest = comparison.cheapest.observed.priceMilli;
    if (fill.priceMilli > cheapest) {
      // ≤ 10⁴ thousandths of a dollar × ≤ 10⁶ thousandths of a gallon: exact as a Number, summed as a BigInt.
      const micro = (fill.priceMilli - cheapest) * fill.gallonsMilli;
      saved += BigInt(micro);
      withSaving++;
      top.offer(micro, fill, comparison);
    }
    if (comparison.medianMilli !== null && fill.priceMilli > comparison.medianMilli) {
      aboveMedian += BigInt((fill.priceMilli - comparison.medianMilli) * fill.gallonsMilli);
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
