import { z } from "zod";

import { UnitPrice } from "./decimal";
import { MAX_SEARCH_LENGTH } from "./limits";
import { Extra } from "./transaction";

export const Station = z.object({
  id: z.string(),
  locNum: z.string(),
  name: z.string(),
  brand: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  lat: z.number(),
  lng: z.number(),
  /** This customer's latest price per gallon; null when the upstream sent none. */
  price: UnitPrice.nullable(),
  priceUpdatedAt: z.iso.datetime().nullable(),
});
export type Station = z.infer<typeof Station>;

export const StationDetail = Station.extend({
  phone: z.string().nullable(),
  zip: z.string().nullable(),
  amenities: z.array(z.string()),
  /** Null when the upstream does not say. */
  defAvailable: z.boolean().nullable(),
  /** Prices per product when the upstream gives them (alternative description), else just what `price` says. */
  prices: z.record(z.string(), UnitPrice.nullable()),
  extra: Extra,
});
export type StationDetail = z.infer<typeof StationDetail>;

export const StationFilter = z.object({
  brand: z.string().min(1).max(40).optional(),
  state: z.string().length(2).optional(),
  search: z.string().min(1).max(MAX_SEARCH_LENGTH).optional(),
});
export type StationFilter = z.infer<typeof StationFilter>;

/** How far the BFF's walk of the whole catalog (`GET /api/locations?all=1`) has got: `GET /api/locations/progress`. */
export interface CatalogProgress {
  /** `idle`: no walk recently (the catalog may come from the cache at once). */
  state: "idle" | "loading" | "done" | "failed";
  pagesDone: number;
  /** Null until the first page answered. */
  pages: number | null;
  total: number | null;
  /** Distinct stations received so far. */
  loaded: number;
  startedAt: string | null;
  updatedAt: string | null;
  /**
   * While the walk waits for the key's request budget (its window is full and requests queue): why, and the budget.
   * `export`: an export of the same key is running and takes the budget; `other`: other requests of the key do.
   * Null when the walk is not waiting.
   */
  budgetWait: { reason: "export" | "other"; budget: number; windowSeconds: number } | null;
}

export { type StationProduct } from "./products";

/** `GET /api/locations/products`: which products the upstream's station detail prices, learned from a real detail reply. */
export const StationProductsInfo = z.object({
  /** The products named in that reply's prices (`["diesel"]` for the one-price shape; empty when it had no price). */
  products: z.array(z.string()),
  /** True when the detail prices more than one product: only then can the page rank by another product. */
  hasSeveralPrices: z.boolean(),
});
export type StationProductsInfo = z.infer<typeof StationProductsInfo>;

/** One station's product prices as its detail reply gave them. */
export const StationProductPrices = z.object({
  id: z.string(),
  /** Product → price per gallon; null when the upstream lists the product without a price (the station does not sell it). */
  prices: z.record(z.string(), UnitPrice.nullable()),
  priceUpdatedAt: z.iso.datetime().nullable(),
  /** When the BFF read this detail from the upstream (it is cached for minutes). */
  checkedAt: z.iso.datetime(),
});
export type StationProductPrices = z.infer<typeof StationProductPrices>;

/** `GET /api/locations/prices?ids=…`: the detail prices of up to 25 stations. */
export const StationPricesReply = z.object({
  items: z.array(StationProductPrices),
  /** Ids the upstream does not know (404): reported, not an error. */
  notFound: z.array(z.string()),
  /** Ids not checked this time, to keep part of the request budget free for the user's other pages. */
  deferred: z.array(z.string()),
  /** When `deferred` is not empty: ask again after about this many seconds. */
  retryAfterSeconds: z.number().int().positive().nullable(),
});
export type StationPricesReply = z.infer<typeof StationPricesReply>;
