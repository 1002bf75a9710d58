import { z } from "zod";
import { UnitPrice } from "./decimal";
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
  search: z.string().min(1).max(100).optional(),
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
}
