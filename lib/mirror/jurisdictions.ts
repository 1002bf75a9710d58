import { sql } from "kysely";

import { averagePricePerGallon, fromMinorUnits } from "@/lib/model";
import type {
  JurisdictionAside,
  JurisdictionFigures,
  JurisdictionReport,
  JurisdictionRow,
} from "@/lib/model/insight-jurisdictions";
import type { LocalDateRange } from "@/lib/model/insights";
import { countsStatus, METRICS } from "@/lib/model/metrics";
import { classifyProduct, FUEL_CLASSES, type FuelClass } from "@/lib/model/product-classes";

import { localDayWhere } from "./local-dates";
import { dayNumberOf } from "./local-rollups";
import { exactInteger } from "./rows";
import type { MirrorStore } from "./store";

const JURISDICTION_METRIC = "tax.completed.local-date";

/**
 * Fuel by jurisdiction (issue 16 item 1): one grouped read of the range's rows by station state × product × status,
 * on the purchase's local date (lib/mirror/local-dates), then folded in code into state × fuel class with the one
 * product classifier of lib/model. Sums stay integers of minor units (BigInt) until formatted. The sums are read from
 * the local-day rollup's state dimension (./local-rollups.ts, kept exact in every write's transaction); the row scan
 * stays as the reference the property test compares it with (local-rollups.test.ts).
 */

interface Sums {
  purchases: number;
  gallons: bigint;
  amount: bigint;
  defGallons: bigint;
  defAmount: bigint;
}

const zero = (): Sums => ({ purchases: 0, gallons: 0n, amount: 0n, defGallons: 0n, defAmount: 0n });

function figuresOf(s: Sums): JurisdictionFigures {
  return {
    purchases: s.purchases,
    gallons: fromMinorUnits(s.gallons, 3),
    amount: fromMinorUnits(s.amount, 2),
    averagePrice: averagePricePerGallon(s.amount, s.gallons),
    defGallons: fromMinorUnits(s.defGallons, 3),
    defAmount: fromMinorUnits(s.defAmount, 2),
  };
}

const asideOf = (s: Sums): JurisdictionAside => ({
  purchases: s.purchases,
  gallons: fromMinorUnits(s.gallons, 3),
  amount: fromMinorUnits(s.amount, 2),
});

/** Adds a group's purchases by their own gallons and amount (an aside: pending, DEF bought alone). */
function addPurchases(s: Sums, g: { n: number; gallons: bigint; amount: bigint }): void {
  s.purchases += g.n;
  s.gallons += g.gallons;
  s.amount += g.amount;
}

/** Code-unit order, the same on both stores (a database's collation could order them otherwise). */
const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

const fuelOrder = (f: FuelClass) => FUEL_CLASSES.indexOf(f);

/** The report's row order: states A→Z with "no state" last; then diesel, unleaded, other. */
const byStateThenFuel = (x: { state: string; fuel: FuelClass }, y: { state: string; fuel: FuelClass }) =>
  (x.state === "") !== (y.state === "")
    ? x.state === ""
      ? 1
      : -1
    : byText(x.state, y.state) || fuelOrder(x.fuel) - fuelOrder(y.fuel);

/** A report with nothing in it (the mirror covers none of the range yet). */
export const emptyJurisdictionReport = (): JurisdictionReport => ({
  rows: [],
  totals: figuresOf(zero()),
  pending: asideOf(zero()),
  failed: { purchases: 0 },
  quality: { noState: 0, unknownProducts: [], pendingAtEnd: 0 },
  defOnly: asideOf(zero()),
  completed: asideOf(zero()),
});

/** Where the grouped sums are read: the local-day rollup (the default), or the rows (the property test's reference). */
export type JurisdictionSource = "rollups" | "rows";

/** The grouped sums of the range from the local-day rollup's state dimension: a few rows per state-day. */
async function groupsFromRollup(store: MirrorStore, customerId: string, range: LocalDateRange) {
  const rows = await store.db
    .selectFrom("mirror_local_day_totals")
    .select((eb) => [
      "key",
      "product",
      "status",
      eb.fn.sum("n").as("n"),
      eb.fn.sum("gallons_milli").as("g"),
      eb.fn.sum("amount_cents").as("a"),
      eb.fn.sum("def_gallons_milli").as("dg"),
      eb.fn.sum("def_amount_cents").as("da"),
    ])
    .where("customer_id", "=", customerId)
    .where("dimension", "=", "state")
    .where("local_day", ">=", dayNumberOf(range.from))
    .where("local_day", "<=", dayNumberOf(range.to))
    .groupBy(["key", "product", "status"])
    .execute();
  return rows.map((r) => ({
    state: r.key.trim().toUpperCase(),
    product: r.product,
    status: r.status,
    n: Number(exactInteger(r.n)),
    gallons: exactInteger(r.g),
    amount: exactInteger(r.a),
    defGallons: exactInteger(r.dg),
    defAmount: exactInteger(r.da),
  }));
}

/** The grouped sums of the range (local dates, inclusive), before the fold. */
async function groups(store: MirrorStore, customerId: string, range: LocalDateRange, source: JurisdictionSource) {
  if (source === "rollups") return groupsFromRollup(store, customerId, range);
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select((eb) => [
      "station_state",
      "product",
      "status",
      eb.fn.countAll().as("n"),
      eb.fn.sum("gallons_milli").as("g"),
      eb.fn.sum("amount_cents").as("a"),
      eb.fn.sum(sql<number>`coalesce(def_gallons_milli, 0)`).as("dg"),
      eb.fn.sum(sql<number>`coalesce(def_amount_cents, 0)`).as("da"),
    ])
    .where((eb) => eb.and([eb("customer_id", "=", customerId), localDayWhere(eb, range)]))
    .groupBy(["station_state", "product", "status"])
    .execute();
  return rows.map((r) => ({
    state: r.station_state.trim().toUpperCase(),
    product: r.product,
    status: r.status,
    n: Number(exactInteger(r.n)),
    gallons: exactInteger(r.g),
    amount: exactInteger(r.a),
    defGallons: exactInteger(r.dg),
    defAmount: exactInteger(r.da),
  }));
}

/**
 * The report of a range of purchase-local dates: completed purchases per state × fuel class (DEF apart), pending and
 * failed counted apart, and what the data-quality block shows.
 */
export async function jurisdictionReport(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange,
  source: JurisdictionSource = "rollups",
): Promise<JurisdictionReport> {
  const cells = new Map<string, { state: string; fuel: FuelClass; products: Set<string>; sums: Sums }>();
  const totals = zero();
  const pending = zero();
  // Purchases of DEF itself, by their own gallons and amount (the list's totals count them as any purchase).
  const defOnly = zero();
  let failed = 0;
  let noState = 0;
  const unknown = new Map<string, number>();
  for (const g of await groups(store, customerId, range, source)) {
    if (g.status === "failed") {
      failed += g.n;
      continue;
    }
    // The tax report counts what its metric counts (completed only); the rest of the charged ones are pending.
    if (!countsStatus(METRICS[JURISDICTION_METRIC].statuses, g.status)) {
      addPurchases(pending, g);
      continue;
    }
    const { productClass, recognised } = classifyProduct(g.product);
    if (!recognised) unknown.set(g.product, (unknown.get(g.product) ?? 0) + g.n);
    if (g.state === "") noState += g.n;
    // A purchase of DEF itself counts in the diesel row's DEF columns (DEF goes with diesel engines), never as fuel.
    const fuel: FuelClass = productClass === "def" ? "diesel" : productClass;
    const key = `${g.state}\u0000${fuel}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { state: g.state, fuel, products: new Set(), sums: zero() }));
    cell.products.add(g.product);
    if (productClass === "def") addPurchases(defOnly, g);
    for (const s of [cell.sums, totals]) {
      s.purchases += g.n;
      if (productClass === "def") {
        s.defGallons += g.gallons + g.defGallons;
        s.defAmount += g.amount + g.defAmount;
      } else {
        s.gallons += g.gallons;
        s.amount += g.amount;
        s.defGallons += g.defGallons;
        s.defAmount += g.defAmount;
      }
    }
  }
  const rows: JurisdictionRow[] = [...cells.values()].sort(byStateThenFuel).map((c) => ({
    state: c.state,
    fuel: c.fuel,
    products: [...c.products].sort(byText),
    ...figuresOf(c.sums),
    previous: null,
  }));
  return {
    rows,
    totals: figuresOf(totals),
    pending: asideOf(pending),
    failed: { purchases: failed },
    quality: {
      noState,
      unknownProducts: [...unknown.entries()]
        .map(([product, purchases]) => ({ product, purchases }))
        .sort((x, y) => y.purchases - x.purchases || byText(x.product, y.product)),
      pendingAtEnd: pending.purchases,
    },
    defOnly: asideOf(defOnly),
    completed: asideOf({
      ...totals,
      gallons: totals.gallons + defOnly.gallons,
      amount: totals.amount + defOnly.amount,
    }),
  };
}

/**
 * Puts the previous period's figures on each row of the current one (same state × fuel). A state × fuel bought in the
 * previous period only gets a row too, with zeros now: otherwise its fall would be missing from the rows, and the
 * rows' previous figures would not add up to the previous totals (the tie-out found it in the report's files, whose
 * "Previous" columns have a Total line under them).
 */
export function withPrevious(current: JurisdictionReport, previous: JurisdictionReport | null): JurisdictionReport {
  if (previous === null) return current;
  const keyOf = (r: JurisdictionRow) => `${r.state}\u0000${r.fuel}`;
  const inCurrent = new Set(current.rows.map(keyOf));
  const figuresOfRow = ({ state: _s, fuel: _f, products: _p, previous: _pp, ...figures }: JurisdictionRow) => figures;
  const before = new Map(previous.rows.map((r) => [keyOf(r), r]));
  const gone: JurisdictionRow[] = previous.rows
    .filter((r) => !inCurrent.has(keyOf(r)))
    .map((r) => ({
      state: r.state,
      fuel: r.fuel,
      products: r.products,
      ...figuresOf(zero()),
      previous: figuresOfRow(r),
    }));
  return {
    ...current,
    rows: [
      ...current.rows.map((r) => {
        const p = before.get(keyOf(r));
        return p === undefined ? r : { ...r, previous: figuresOfRow(p) };
      }),
      ...gone,
    ].sort(byStateThenFuel),
  };
}
