import { averagePricePerGallon, fromMinorUnits } from "@/lib/model";
import type { DrilldownDimension, DrilldownFigures } from "@/lib/model/insight-drilldowns";

import { exactInteger } from "./rows";

/** The drill-downs' sums (exact minor units) per group, and how they read as figures (lib/mirror/drilldowns). */

export type SqlInteger = number | string | bigint | null;

/** The columns a key's label is read from (its newest row). */
export interface LabelColumns {
  driver_name: string | null;
  truck_id: string | null;
  station_name: string | null;
  station_city: string | null;
  station_state: string | null;
}

export interface GroupRow {
  k: string | null;
  n: SqlInteger;
  g: SqlInteger;
  a: SqlInteger;
  dg: SqlInteger;
  defg: SqlInteger;
  last_local: SqlInteger;
  last_at: SqlInteger;
}

/** A group × product row as read (lib/mirror/drilldowns folds the products into a GroupRow by their class). */
export type ProductGroupRow = Omit<GroupRow, "k" | "dg"> & { product: string };

/** Exact sums of one group, before formatting. */
export interface Sums {
  purchases: number;
  gallons: bigint;
  amount: bigint;
  dieselGallons: bigint;
  defGallons: bigint;
  lastLocalMs: number | null;
  lastAtMs: number | null;
}

export const ZERO: Sums = {
  purchases: 0,
  gallons: 0n,
  amount: 0n,
  dieselGallons: 0n,
  defGallons: 0n,
  lastLocalMs: null,
  lastAtMs: null,
};

/** DEF gallons per 100 diesel gallons to 2 places, rounded half up in integers; null without diesel. */
export function defRatioPercent(defMilli: bigint, dieselMilli: bigint): string | null {
  if (dieselMilli === 0n) return null;
  return fromMinorUnits((defMilli * 10_000n + dieselMilli / 2n) / dieselMilli, 2);
}

export function figuresOf(s: Sums): DrilldownFigures {
  return {
    purchases: s.purchases,
    gallons: fromMinorUnits(s.gallons, 3),
    amount: fromMinorUnits(s.amount, 2),
    averagePricePerGallon: averagePricePerGallon(s.amount, s.gallons),
    defGallons: fromMinorUnits(s.defGallons, 3),
    dieselGallons: fromMinorUnits(s.dieselGallons, 3),
    defRatioPercent: defRatioPercent(s.defGallons, s.dieselGallons),
    lastPurchaseAt: s.lastAtMs === null ? null : new Date(s.lastAtMs).toISOString(),
    lastPurchaseLocalDate: s.lastLocalMs === null ? null : new Date(s.lastLocalMs).toISOString().slice(0, 10),
  };
}

export const ZERO_FIGURES: DrilldownFigures = figuresOf(ZERO);

const nullableMs = (v: SqlInteger): number | null => (v === null ? null : Number(v));

type SumColumns = Pick<GroupRow, "n" | "g" | "a" | "dg" | "defg" | "last_local" | "last_at">;

export function sumsOf(r: SumColumns): Sums {
  return {
    purchases: Number(exactInteger(r.n)),
    gallons: exactInteger(r.g),
    amount: exactInteger(r.a),
    dieselGallons: exactInteger(r.dg),
    defGallons: exactInteger(r.defg),
    lastLocalMs: nullableMs(r.last_local),
    lastAtMs: nullableMs(r.last_at),
  };
}

export function addSums(x: Sums, y: Sums): Sums {
  const later = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
  return {
    purchases: x.purchases + y.purchases,
    gallons: x.gallons + y.gallons,
    amount: x.amount + y.amount,
    dieselGallons: x.dieselGallons + y.dieselGallons,
    defGallons: x.defGallons + y.defGallons,
    lastLocalMs: later(x.lastLocalMs, y.lastLocalMs),
    lastAtMs: later(x.lastAtMs, y.lastAtMs),
  };
}

/** What a row of the dimension is called, and what is said beside it. */
export function labelOf(
  dimension: DrilldownDimension,
  key: string,
  r: Partial<LabelColumns>,
): { name: string; detail: string | null } {
  switch (dimension) {
    case "driver":
      return { name: r.driver_name ?? key, detail: r.truck_id ?? null };
    case "truck":
      return { name: key, detail: r.driver_name ?? null };
    case "card":
      return { name: `•••• ${key}`, detail: r.driver_name ?? null };
    case "station":
      return {
        name: r.station_name ?? key,
        detail: r.station_city && r.station_state ? `${r.station_city}, ${r.station_state}` : null,
      };
  }
}
