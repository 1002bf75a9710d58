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
