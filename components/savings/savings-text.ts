import { formatCount, formatCountOf, formatGallons, formatMoney } from "@/lib/format/numbers";
import type { FillCount, SavingsFigures } from "@/lib/model/insight-savings";

/**
 * The savings card's sentences (issue 25 item 3): over how many fills of how many the figures were computed, why the
 * rest were not compared, and whether the customer price was applied. Pure, so the wording is tested without a page.
 */

const fills = (n: number) => formatCountOf(n, "fill", "fills");
const hours = (h: number) => `${String(h)} ${h === 1 ? "hour" : "hours"}`;
const counted = (c: FillCount) => `${fills(c.fills)} (${formatGallons(c.gallons)} gal)`;

/** "over 12 of 40 completed fills": the N of M the card's figures are computed on. */
export function comparedText(f: SavingsFigures): string {
  return `over ${formatCount(f.fills)} of ${formatCount(f.considered)} completed ${f.considered === 1 ? "fill" : "fills"}`;
}

/** The reasons fills were not compared, one line each (none when every fill was). */
export function notComparedItems(
  f: SavingsFigures,
  windowHours: number,
  radiusMiles: number,
): (readonly [string, string])[] {
  const items: (readonly [string, string])[] = [];
  const { noObservation, noOtherStation } = f.notCompared;
  if (noObservation.fills > 0)
    items.push([
      `Not compared: no other station's price observed within ${hours(windowHours)} of the fill`,
      counted(noObservation),
    ]);
  if (noOtherStation.fills > 0)
    items.push([`Not compared: no other station within ${String(radiusMiles)} miles`, counted(noOtherStation)]);
  if (f.unknownStation.fills > 0)
    items.push(["Not compared: stations missing from the catalog", counted(f.unknownStation)]);
  if (f.otherProduct.fills > 0)
    items.push(["Not compared: other products (the catalog prices diesel only)", counted(f.otherProduct)]);
  return items;
}

/** "Was the customer price applied?" in one sentence. */
export function priceAppliedText(f: SavingsFigures, windowHours: number): string {
  const { checked, notChecked, fillsAbove, paidAbove } = f.priceApplied;
  const skipped =
    notChecked === 0
      ? ""
      : ` ${fills(notChecked)} not checked: no price of their station observed within ${hours(windowHours)}.`;
  if (checked === 0) return `No diesel fill could be checked.${skipped}`;
  const verdict =
    fillsAbove === 0
      ? "none paid more than its station's observed customer price."
      : `${formatCount(fillsAbove)} paid more than their station's observed customer price, ${formatMoney(paidAbove)} in total.`;
  return `${fills(checked)} checked: ${verdict}${skipped}`;
}

/** How far from the fill the cheaper station's price was observed ("at the time" when it held then). */
export function observedWhenText(apartMinutes: number): string {
  if (apartMinutes === 0) return "price at the time";
  const h = Math.round(apartMinutes / 60);
  return h === 0 ? `price seen ${String(apartMinutes)} min from the fill` : `price seen ${hours(h)} from the fill`;
}
