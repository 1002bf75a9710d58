import type { StationPricesReply, StationProduct, StationProductPrices } from "@/lib/model";

import { type RankedStation, rankPriced, type StationWithin } from "./ranking";

/**
 * "Cheapest near here" for a product the catalog does not price (unleaded, DEF). The catalog's one price per station is
 * diesel; another product's price is in each station's detail, one upstream request per station out of a budget the
 * user's other pages and exports share. So the page checks the stations nearest the point first, PRICE_CHECK_STEP at
 * a time (more on request), and ranks only what it has checked, saying so. Pure functions, unit-tested.
 */

/** Diesel is the catalog's own price; another product is read from station details. */
export const DEFAULT_PRODUCT: StationProduct = "diesel";

/** Stations checked per step ("Check 25 more"); the BFF takes at most this many ids per request. */
export const PRICE_CHECK_STEP = 25;
/** Ids per BFF request: requests go one after another, so the page can say how far the checking has got. */
const PRICE_CHECK_CHUNK = 5;

/** What the page knows of one station's detail prices. */
export type PriceLookup =
  | { kind: "found"; prices: StationProductPrices["prices"]; priceUpdatedAt: string | null; checkedAt: string }
  | { kind: "not_found" };

export interface ProductRanking {
  product: StationProduct;
  /** The cheapest checked stations with a price for the product: price ascending, then nearer, then loc number. */
  items: RankedStation[];
  /** Stations within the radius (after the filters): the candidates. */
  candidates: number;
  /** Candidates the page means to check now: the nearest `checkLimit` of them. */
  toCheck: number;
  /** Of those, how many have an answer (found or not found). */
  checked: number;
  /** Checked stations with a price for the product. */
  priced: number;
  /** Checked stations whose detail gives no price for the product ("No DEF"), nearest first. */
  withoutProduct: StationWithin[];
  /** Checked stations the upstream does not know (404), nearest first. */
  notFound: StationWithin[];
  /** Mean product price of the checked stations that have one; null when none. */
  areaAverage: number | null;
}

/**
 * Ranks the nearest `checkLimit` of `candidates` (nearest first, see sortByDistance) by the product's price as their
 * details gave it. Stations not checked yet are left out (and counted by `toCheck - checked`), never guessed.
 */
export function rankByProduct(
  candidates: readonly StationWithin[],
  lookups: ReadonlyMap<string, PriceLookup>,
  product: StationProduct,
  checkLimit: number,
  limit: number,
): ProductRanking {
  const nearest = candidates.slice(0, Math.max(0, checkLimit));
  const priced: Parameters<typeof rankPriced>[0][number][] = [];
  const withoutProduct: StationWithin[] = [];
  const notFound: StationWithin[] = [];
  let checked = 0;
  for (const candidate of nearest) {
    const lookup = lookups.get(candidate.station.id);
    if (lookup === undefined) continue;
    checked++;
    if (lookup.kind === "not_found") {
      notFound.push(candidate);
      continue;
    }
    const price = lookup.prices[product] ?? null;
    if (price === null) withoutProduct.push(candidate);
    else
      priced.push({
        station: candidate.station,
        price: Number(price),
        priceText: price,
        priceUpdatedAt: lookup.priceUpdatedAt,
        distanceMiles: candidate.distanceMiles,
      });
  }
  const pricedCount = priced.length;
  const { items, areaAverage } = rankPriced(priced, limit);
  return {
    product,
    items,
    candidates: candidates.length,
    toCheck: nearest.length,
    checked,
    priced: pricedCount,
    withoutProduct,
    notFound,
    areaAverage,
  };
}

/** The ids to check, nearest first, in the chunks the page asks the BFF for (stable as the limit grows). */
export function priceCheckChunks(
  candidates: readonly StationWithin[],
  checkLimit: number,
  chunkSize: number = PRICE_CHECK_CHUNK,
): string[][] {
  const ids = candidates.slice(0, Math.max(0, checkLimit)).map((c) => c.station.id);
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += chunkSize) chunks.push(ids.slice(i, i + chunkSize));
  return chunks;
}

const PRODUCT_NAMES: Readonly<Record<string, string>> = { diesel: "Diesel", unleaded: "Unleaded", def: "DEF" };

/** "Diesel", "Unleaded", "DEF"; another product's code with its first letter up. */
export function productName(product: string): string {
  return PRODUCT_NAMES[product] ?? product.charAt(0).toUpperCase() + product.slice(1).replace(/_/g, " ");
}

/** In a sentence: "unleaded", "DEF", "diesel". */
export function productInText(product: string): string {
  return product === "def" ? "DEF" : productName(product).toLowerCase();
}

/** "an unleaded", "a DEF", "a diesel": the product in a sentence with its article. */
export function withArticle(product: string): string {
  const text = productInText(product);
  return `${/^[aeiou]/i.test(text) && product !== "def" ? "an" : "a"} ${text}`;
}

/** What the BFF's replies say of each station: its detail prices, or that the upstream does not know it. */
export function lookupsFromReplies(replies: readonly StationPricesReply[]): Map<string, PriceLookup> {
  const lookups = new Map<string, PriceLookup>();
  for (const reply of replies) {
    for (const item of reply.items)
      lookups.set(item.id, {
        kind: "found",
        prices: item.prices,
        priceUpdatedAt: item.priceUpdatedAt,
        checkedAt: item.checkedAt,
      });
    for (const id of reply.notFound) lookups.set(id, { kind: "not_found" });
  }
  return lookups;
}
