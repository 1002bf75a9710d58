import { formatCount, formatDollarsPerGallon } from "@/lib/format/numbers";

import { productInText, productName, type ProductRanking, withArticle } from "./product-ranking";

/** "1 station has", "3 stations have". */
export const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * The sentences of a product ranking's summary: how far the checking near the point has got (`status`, after "Near
 * PLACE: "), and what the checked stations gave (`results`, null before any was checked).
 */
export function describePriceCheck(
  ranking: ProductRanking,
  isChecking: boolean,
  radiusMiles: number,
): { status: string; results: string | null } {
  const name = productInText(ranking.product);
  const where = `within ${String(radiusMiles)} mi`;
  const scope =
    ranking.toCheck === ranking.candidates
      ? `${ranking.candidates === 1 ? "the only station" : `all ${formatCount(ranking.candidates)} stations`} ${where}`
      : `the ${formatCount(ranking.toCheck)} nearest of ${formatCount(ranking.candidates)} stations ${where}`;

  let status: string;
  if (ranking.candidates === 0) status = `no station ${where}. Try a larger radius or another point.`;
  else if (isChecking)
    status = `checking ${name} prices at ${scope}… ${formatCount(ranking.checked)} of ${formatCount(ranking.toCheck)} checked.`;
  else if (ranking.checked < ranking.toCheck)
    status = `${productName(ranking.product)} prices checked at ${formatCount(ranking.checked)} of ${scope}.`;
  else status = `${productName(ranking.product)} prices checked at ${scope}.`;

  const results =
    ranking.checked === 0
      ? null
      : `${plural(ranking.priced, "has", "have")} ${withArticle(ranking.product)} price${ranking.areaAverage === null ? "" : `, average ${formatDollarsPerGallon(ranking.areaAverage)}`}.` +
        (ranking.withoutProduct.length === 0
          ? ""
          : ` ${plural(ranking.withoutProduct.length, "station has", "stations have")} none (listed as “No ${name}”).`);

  return { status, results };
}
