import { observedPriceAt } from "@/lib/insights/price-observations";
import { distanceMiles } from "@/lib/route/geo";

import { card, contextOf, duration, gallons, localDate, localMoment, miles, money, unitPrice } from "./describe";
import { classOf } from "./history";
import { groupBy, isFill } from "./rules-frequency";
import type { CatalogStation, RawHit, RuleInput, RuleOutcome } from "./types";

const HOUR_MS = 3_600_000;
/**
 * The catalog's one price per station is the customer's diesel price (GET /locations), recorded by each walk with its
 * instant: only diesel is compared, by the one classifier ("Diesel", "ULSD #2" are diesel).
 */
const isCatalogProduct = (product: string) => classOf(product) === "diesel";

const stationsMissing = (n: number) =>
  `${String(n)} ${n === 1 ? "purchase was" : "purchases were"} not judged: ${n === 1 ? "its station is" : "their stations are"} not in the station catalog.`;

const notObserved = (n: number, windowMs: number) =>
  `${String(n)} ${n === 1 ? "purchase was" : "purchases were"} not judged: no price of ${n === 1 ? "its station" : "their stations"} was observed within ${duration(windowMs)} of ${n === 1 ? "it" : "them"} (the catalog walks record the prices; a purchase before the first walk, or far from any, has none).`;

const whenObserved = (apartMs: number): string =>
  apartMs === 0 ? "at the time" : `${duration(apartMs)} from the purchase`;

/**
 * Was the customer price applied? A diesel fill paid more per gallon than its station's customer price observed at
 * that time (lib/insights/price-observations: the nearest observation within PRICE_WINDOW_HOURS) by more than the
 * margin. Never today's price for an older fill: a fill with no observation that close is not judged, and counted.
 */
export function aboveCatalogPrice({ purchases, catalog, observed, thresholds }: RuleInput): RuleOutcome {
  if (catalog === null || observed === null) return { hits: [], notJudged: null };
  const marginMilli = thresholds.priceMarginCents * 10;
  const hits: RawHit[] = [];
  let missing = 0;
  let unobserved = 0;
  for (const p of purchases) {
    if (!isFill(p) || !isCatalogProduct(p.product)) continue;
    if (!catalog.has(p.stationId)) {
      missing++;
      continue;
    }
    const price = observedPriceAt(observed.prices.get(p.stationId), p.atMs, observed.windowMs);
    if (price === null) {
      unobserved++;
      continue;
    }
    const over = p.priceMilli - price.priceMilli;
    if (over <= marginMilli) continue;
    // Whole cents, rounded half up like the upstream's amounts: what the gallons cost above the observed price. In
    // integers (BigInt): thousandths of a dollar per gallon × thousandths of a gallon are ten-thousandths of a cent.
    const extraCents = (BigInt(over) * BigInt(p.gallonsMilli) + 5_000n) / 10_000n;
    hits.push({
      rule: "above-catalog-price",
      sentence: () =>
        `Paid ${unitPrice(p.priceMilli)}/gal for ${gallons(p.gallonsMilli)} of diesel at ${p.stationName} (${localMoment(p)} local time), ${unitPrice(over)} above its customer price ${unitPrice(price.priceMilli)} observed ${whenObserved(price.apartMs)}: ${money(extraCents)} more.`,
      atMs: p.atMs,
      localDate: localDate(p),
      transactionIds: [p.id],
      context: contextOf([p], { driver: p.driverId }, `Purchases by ${p.driverName} that day`),
    });
  }
  const notJudged = [
    missing === 0 ? null : stationsMissing(missing),
    unobserved === 0 ? null : notObserved(unobserved, observed.windowMs),
  ].filter((x) => x !== null);
  return { hits, notJudged: notJudged.length === 0 ? null : notJudged.join(" ") };
}

/**
 * Two purchases in a row by one driver whose stations are farther apart (great circle) than the time between them
 * allows at the speed limit (default 75 mph), and at least `travelMinMiles` apart (neighbouring stations, minutes
 * apart, are not travel). Failed attempts count: the card was at the pump.
 */
export function impossibleTravel({ purchases, catalog, thresholds }: RuleInput): RuleOutcome {
  if (catalog === null) return { hits: [], notJudged: null };
  const hits: RawHit[] = [];
  const missing = new Set<string>();
  for (const run of groupBy(purchases, (p) => p.driverId).values()) {
    for (let i = 1; i < run.length; i++) {
      const a = run[i - 1];
      const b = run[i];
      if (a === undefined || b === undefined) continue;
      const from: CatalogStation | undefined = catalog.get(a.stationId);
      const to: CatalogStation | undefined = catalog.get(b.stationId);
      if (!from || !to) {
        if (!from) missing.add(a.id);
        if (!to) missing.add(b.id);
        continue;
      }
      if (a.stationId === b.stationId) continue;
      const distance = distanceMiles(from, to);
      const hours = (b.atMs - a.atMs) / HOUR_MS;
      if (distance < thresholds.travelMinMiles || distance <= thresholds.travelMph * hours) continue;
      const speed = hours > 0 ? `${miles(distance / hours)} per hour` : "no time at all";
      hits.push({
        rule: "impossible-travel",
        sentence: () =>
          `${a.driverName} bought at ${a.stationName} and then at ${b.stationName} ${miles(distance)} away within ${duration(b.atMs - a.atMs)} (${speed}; the limit is ${String(thresholds.travelMph)} mph), on ${card(a.cardLast4)}${b.cardLast4 === a.cardLast4 ? "" : ` and ${card(b.cardLast4)}`}.`,
        atMs: a.atMs,
        localDate: localDate(a),
        transactionIds: [a.id, b.id],
        context: contextOf([a, b], { driver: a.driverId }, `Purchases by ${a.driverName} on those days`),
      });
    }
  }
  return { hits, notJudged: missing.size === 0 ? null : stationsMissing(missing.size) };
}
