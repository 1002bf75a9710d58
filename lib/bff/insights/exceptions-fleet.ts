import fc from "fast-check";

import { DEFAULT_EXCEPTION_THRESHOLDS, type ExceptionThresholds, type Purchase } from "@/lib/insights/exceptions/types";
import { addDays, fromMinorUnits, type LocalDateRange, type Transaction } from "@/lib/model";

/**
 * Random fleets, periods and thresholds for the exceptions' property tests (exceptions-read.test.ts): a few drivers,
 * trucks (some purchases with none), cards and stations, product names of both API shapes, every status, several
 * UTC offsets, over 24 days from DAY0; each purchase both as the rules read it and as the sync writes it.
 */

export const DAY0 = "2026-10-01";
const DAY0_MS = Date.parse(`${DAY0}T00:00:00Z`);
const MINUTE_MS = 60_000;
const DAYS = 24;
const PRODUCTS = ["diesel", "Diesel", "ULSD #2", "Unleaded 87", "regular", "DEF", "AdBlue", "Propane", "Mystery"];
const OFFSETS = [null, -360, -300, 60, 330];
const STATIONS = 6;

const purchaseArb = fc.record({
  minute: fc.nat({ max: DAYS * 1440 }),
  offsetMin: fc.constantFrom(...OFFSETS),
  status: fc.constantFrom("completed", "completed", "completed", "pending", "failed"),
  product: fc.constantFrom(...PRODUCTS),
  gallonsMilli: fc.oneof(fc.constantFrom(50_000, 100_000, 150_000), fc.integer({ min: 1, max: 300_000 })),
  priceMilli: fc.integer({ min: 3_000, max: 4_500 }),
  station: fc.nat({ max: STATIONS - 1 }),
  driver: fc.nat({ max: 3 }),
  truck: fc.option(fc.nat({ max: 3 }), { freq: 4 }),
  card: fc.nat({ max: 4 }),
  defGallonsMilli: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 })),
});

/** A fleet's purchases, ids in time order of generation (fixed width: both stores order them alike). */
export const fleetArb: fc.Arbitrary<Purchase[]> = fc
  .array(purchaseArb, { minLength: 20, maxLength: 200, size: "max" })
  .map((list) =>
    list.map((x, i): Purchase => ({
      id: `tx-${String(i).padStart(5, "0")}`,
      atMs: DAY0_MS + x.minute * MINUTE_MS,
      offsetMin: x.offsetMin,
      status: x.status,
      product: x.product,
      gallonsMilli: x.gallonsMilli,
      priceMilli: x.priceMilli,
      stationId: `st-${String(x.station)}`,
      stationName: `Station ${String(x.station)}`,
      driverId: `dr-${String(x.driver)}`,
      driverName: `Driver ${String(x.driver)}`,
      truckId: x.truck === null ? null : `T${String(x.truck)}`,
      cardLast4: String(1000 + x.card),
      defGallonsMilli: x.defGallonsMilli,
    })),
  );

/** The purchase as the upstream sends it (and the sync writes it). */
export const toTransaction = (p: Purchase): Transaction => ({
  id: p.id,
  reference: `R${p.id}`,
  at: new Date(p.atMs).toISOString(),
  localOffsetMinutes: p.offsetMin,
  status: p.status,
  product: p.product,
  gallons: fromMinorUnits(BigInt(p.gallonsMilli), 3),
  pricePerGallon: fromMinorUnits(BigInt(p.priceMilli), 3),
  amount: fromMinorUnits(BigInt(Math.round((p.gallonsMilli * p.priceMilli) / 10_000)), 2),
  station: { id: p.stationId, name: p.stationName, locNum: p.stationId, city: "Tulsa", state: "OK" },
  driver: { id: p.driverId, name: p.driverName, truckId: p.truckId },
  card: { last4: p.cardLast4 },
  def:
    p.defGallonsMilli === 0
      ? null
      : { gallons: fromMinorUnits(BigInt(p.defGallonsMilli), 3), amount: "1.00", category: "def" },
});

export const thresholdsArb: fc.Arbitrary<ExceptionThresholds> = fc
  .record({
    rapidFillsCount: fc.integer({ min: 2, max: 4 }),
    rapidFillsWindowMinutes: fc.integer({ min: 30, max: 600 }),
    largeFillPercentile: fc.integer({ min: 1, max: 100 }),
    largeFillMedianPercent: fc.integer({ min: 50, max: 250 }),
    historyMinFills: fc.integer({ min: 1, max: 6 }),
    historyDays: fc.integer({ min: 1, max: DAYS }),
    nightStartHour: fc.integer({ min: 0, max: 23 }),
    nightEndHour: fc.integer({ min: 0, max: 23 }),
    weekends: fc.boolean(),
    priceMarginCents: fc.integer({ min: 0, max: 60 }),
    unusualProductMaxPercent: fc.integer({ min: 1, max: 60 }),
    defDieselWindowMinutes: fc.integer({ min: 5, max: 240 }),
    travelMph: fc.integer({ min: 10, max: 80 }),
    travelMinMiles: fc.integer({ min: 1, max: 50 }),
    failedWindowMinutes: fc.integer({ min: 5, max: 120 }),
    offHoursOn: fc.boolean(),
    catalogPriceOn: fc.boolean(),
  })
  .map((t) => ({ ...DEFAULT_EXCEPTION_THRESHOLDS, ...t }));

/** A period of 1 to 12 days within the fleet's (its history reaching before them, or not asked). */
export const periodArb: fc.Arbitrary<{ query: LocalDateRange; withHistory: boolean }> = fc
  .record({ start: fc.nat({ max: DAYS - 1 }), days: fc.integer({ min: 1, max: 12 }), withHistory: fc.boolean() })
  .map(({ start, days, withHistory }) => ({
    query: { from: addDays(DAY0, start), to: addDays(DAY0, start + days - 1) },
    withHistory,
  }));

/** Where the stations are (some missing from the catalog) and the prices observed around DAY0's days (or none). */
export const catalogArb = fc.record({
  places: fc.array(
    fc.option(
      fc.record({
        lat: fc.double({ min: 25, max: 49, noNaN: true }),
        lng: fc.double({ min: -124, max: -67, noNaN: true }),
      }),
      { freq: 5 },
    ),
    { minLength: STATIONS, maxLength: STATIONS },
  ),
  prices: fc.option(
    fc.array(
      fc.record({
        fromDay: fc.nat({ max: DAYS }),
        days: fc.nat({ max: 20 }),
        priceMilli: fc.integer({ min: 3_000, max: 4_500 }),
      }),
      { minLength: STATIONS, maxLength: STATIONS },
    ),
  ),
  windowHours: fc.integer({ min: 1, max: 72 }),
});

export type CatalogAsk = typeof catalogArb extends fc.Arbitrary<infer C> ? C : never;
