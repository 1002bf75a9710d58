import { sql } from "kysely";

import { averagePricePerGallon, fromMinorUnits } from "@/lib/model";
import type { DrilldownDimension, DrilldownFigures } from "@/lib/model/insight-drilldowns";
import { classifyProduct } from "@/lib/model/product-classes";

import { exactInteger } from "./rows";

/** The drill-downs' sums (exact minor units) per group, and how they read as figures (lib/mirror/drilldowns). */

export type SqlInteger = number | string | bigint | null;

/** The mirror's column of each dimension's key. */
export const KEY_COLUMN = {
  driver: "driver_id",
  truck: "truck_id",
  card: "card_last4",
  station: "station_id",
} as const satisfies Record<DrilldownDimension, string>;

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
  /** LAST_PURCHASE of the group. */
  last: SqlInteger;
}

/** A group × product row as read (lib/mirror/drilldowns folds the products into a GroupRow by their class). */
export type ProductGroupRow = Omit<GroupRow, "k" | "dg"> & { product: string };
/** Offsets (within ±15 h, lib/mirror/local-dates) shifted by 1,024: 0 … 2,047, so they fit below the time's bits. */
const OFFSET_SHIFT = 1024n;
const OFFSET_SPAN = 2048n;

/**
 * The group's newest purchase as one integer, its time and its offset together (time × 2,048 + offset + 1,024), so a
 * max() gives the time and the local date of the same purchase: two max()es could pair one row's time with another's
 * local date (a later local date can belong to an earlier purchase with a larger offset). Exact in 53 bits until 2109.
 */
export const LAST_PURCHASE = sql<SqlInteger>`max(at_ms * ${sql.lit(Number(OFFSET_SPAN))} + coalesce(local_offset_min, 0) + ${sql.lit(Number(OFFSET_SHIFT))})`;

/**
 * The same newest purchase read from the local-day rollup (./local-rollups.ts), which keeps each key-day's newest
 * instant but not its offset: the instant × 4 + (the row's local day − the instant's UTC day + 1, which is 0, 1 or 2
 * as offsets are within ±15 h). A max() still gives the newest instant, ties going to the later local date; the local
 * date is all the figures show of it.
 */
export const ROLLUP_LAST_PURCHASE = sql<SqlInteger>`max(last_at_ms * 4 + (local_day - last_at_ms / ${sql.lit(86_400_000)}) + 1)`;

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

type SumColumns = Pick<GroupRow, "n" | "g" | "a" | "dg" | "defg" | "last">;

/** LAST_PURCHASE read back: the purchase's time and its local wall time (offset null counts as UTC, as everywhere). */
function lastOf(v: SqlInteger): { lastAtMs: number | null; lastLocalMs: number | null } {
  if (v === null) return { lastAtMs: null, lastLocalMs: null };
  const packed = exactInteger(v);
  const atMs = packed / OFFSET_SPAN;
  const offsetMin = (packed % OFFSET_SPAN) - OFFSET_SHIFT;
  return { lastAtMs: Number(atMs), lastLocalMs: Number(atMs + offsetMin * 60_000n) };
}

/** ROLLUP_LAST_PURCHASE read back: the instant, and the local date's midnight as the local wall time. */
export function rollupLastOf(v: SqlInteger): { lastAtMs: number | null; lastLocalMs: number | null } {
  if (v === null) return { lastAtMs: null, lastLocalMs: null };
  const packed = exactInteger(v);
  const atMs = packed / 4n;
  const localDay = atMs / 86_400_000n + (packed % 4n) - 1n;
  return { lastAtMs: Number(atMs), lastLocalMs: Number(localDay * 86_400_000n) };
}

/** How a group's packed newest purchase is read back: LAST_PURCHASE's (rows) or ROLLUP_LAST_PURCHASE's. */
export type LastDecoder = typeof lastOf;

export function sumsOf(r: SumColumns, decodeLast: LastDecoder = lastOf): Sums {
  return {
    purchases: Number(exactInteger(r.n)),
    gallons: exactInteger(r.g),
    amount: exactInteger(r.a),
    dieselGallons: exactInteger(r.dg),
    defGallons: exactInteger(r.defg),
    ...decodeLast(r.last),
  };
}

export function addSums(x: Sums, y: Sums): Sums {
  // The later purchase's time and local date together (a tie in time: the larger local time, as LAST_PURCHASE does).
  const yLater =
    x.lastAtMs === null ||
    (y.lastAtMs !== null &&
      (y.lastAtMs > x.lastAtMs || (y.lastAtMs === x.lastAtMs && (y.lastLocalMs ?? 0) > (x.lastLocalMs ?? 0))));
  const last = yLater ? y : x;
  return {
    purchases: x.purchases + y.purchases,
    gallons: x.gallons + y.gallons,
    amount: x.amount + y.amount,
    dieselGallons: x.dieselGallons + y.dieselGallons,
    defGallons: x.defGallons + y.defGallons,
    lastLocalMs: last.lastLocalMs,
    lastAtMs: last.lastAtMs,
  };
}

/**
 * Sums per group from sums per group × product: the product's class comes from the one classifier
 * (lib/model/product-classes), not a comparison in SQL, so "Diesel" and "ULSD #2" are diesel gallons and a purchase
 * of DEF itself ("DEF", "AdBlue") counts in the DEF gallons, on both stores alike.
 */
export function foldProducts<R extends ProductGroupRow>(
  rows: readonly R[],
  keyOf: (r: R) => string | number | null,
): (R & { dg: SqlInteger })[] {
  const folded = new Map<string | number | null, R & { dg: SqlInteger }>();
  const bigOf = (v: SqlInteger) => exactInteger(v);
  const later = (x: SqlInteger, y: SqlInteger) => (x === null ? y : y === null ? x : Number(x) > Number(y) ? x : y);
  for (const r of rows) {
    const productClass = classifyProduct(r.product).productClass;
    const g = bigOf(r.g);
    const own: R & { dg: SqlInteger } = {
      ...r,
      dg: productClass === "diesel" ? g : 0n,
      defg: bigOf(r.defg) + (productClass === "def" ? g : 0n),
    };
    const key = keyOf(r);
    const seen = folded.get(key);
    folded.set(
      key,
      seen === undefined
        ? own
        : {
            ...seen,
            n: bigOf(seen.n) + bigOf(own.n),
            g: bigOf(seen.g) + g,
            a: bigOf(seen.a) + bigOf(own.a),
            dg: bigOf(seen.dg) + bigOf(own.dg),
            defg: bigOf(seen.defg) + bigOf(own.defg),
            // LAST_PURCHASE packs time and offset in one integer (exact below 2^53), so the later one is the larger.
            last: later(seen.last, own.last),
          },
    );
  }
  return [...folded.values()];
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
