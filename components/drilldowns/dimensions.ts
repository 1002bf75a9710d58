import type { Route } from "next";

import type { DrilldownDimension } from "@/lib/model/insight-drilldowns";
import type { LocalDateRange } from "@/lib/model/insights";
import { NO_MIRROR_FILTERS, writeTransactionFilters } from "@/lib/queries/transaction-filters";

/**
 * The drill-down pages' words and addresses per dimension: one table of them, so the list, the detail and the links
 * from elsewhere (transactions, overview, station detail) agree.
 */
export interface DimensionWords {
  /** "Drivers" — the list page's title and nav label. */
  plural: string;
  /** "driver" — in sentences. */
  one: string;
  /** The name column's heading. */
  heading: string;
  /** The API of the list (none for stations: the stations page is the catalog) and of one key. */
  listApi: string | null;
  detailApi: (key: string) => string;
  /** The transactions list's mirror filter that lists this key's rows. */
  filter: "driver" | "truck" | "card" | "station";
}

export const DIMENSIONS: Record<DrilldownDimension, DimensionWords> = {
  driver: {
    plural: "Drivers",
    one: "driver",
    heading: "Driver",
    listApi: "/api/drivers",
    detailApi: (key) => `/api/drivers/${encodeURIComponent(key)}`,
    filter: "driver",
  },
  truck: {
    plural: "Trucks",
    one: "truck",
    heading: "Truck",
    listApi: "/api/trucks",
    detailApi: (key) => `/api/trucks/${encodeURIComponent(key)}`,
    filter: "truck",
  },
  card: {
    plural: "Cards",
    one: "card",
    heading: "Card",
    listApi: "/api/cards",
    detailApi: (key) => `/api/cards/${encodeURIComponent(key)}`,
    filter: "card",
  },
  station: {
    plural: "Stations",
    one: "station",
    heading: "Station",
    listApi: null,
    detailApi: (key) => `/api/locations/${encodeURIComponent(key)}/insights`,
    filter: "station",
  },
};

/** A detail page's own key, which its breakdown's rows are within (a driver's stations: that driver at each). */
export interface WithinKey {
  dimension: DrilldownDimension;
  key: string;
}

/**
 * The transactions list's filters for exactly the rows behind a figure: the key's rows on the figure's local dates
 * (the list's `dates=local`), every status — the list's totals (completed and pending) equal the figure. `within`:
 * the detail page's key too, for a row of its breakdown.
 */
export function transactionsQuery(
  dimension: DrilldownDimension,
  key: string | null,
  range: LocalDateRange,
  within?: WithinKey,
) {
  const mirror = { ...NO_MIRROR_FILTERS, dates: "local" };
  if (within !== undefined) mirror[DIMENSIONS[within.dimension].filter] = within.key;
  if (key !== null) mirror[DIMENSIONS[dimension].filter] = key;
  return writeTransactionFilters(new URLSearchParams(), {
    from: range.from,
    to: range.to,
    tz: "UTC",
    status: null,
    search: "",
    mirror,
  });
}

/** The transactions page showing those rows. */
export function transactionsLink(
  dimension: DrilldownDimension,
  key: string | null,
  range: LocalDateRange,
  within?: WithinKey,
): Route {
  return `/transactions?${transactionsQuery(dimension, key, range, within).toString()}` as Route;
}
