/**
 * Seeded exception cases (issue 16 item 3): a few purchases for the demo customer that the dashboard's exception rules
 * flag, so the demo shows at least one hit per rule. They are ADDED after the generated history, from a generator of
 * their own, so every generated row stays as it was; `EXCEPTION_CASE_ROWS` says how many there are (tests that count
 * a customer's rows add it). A driver of their own ("Casey Quinn", truck T-900) has a plain diesel history, so the
 * rules that compare with a truck's usual have one to compare with.
 */
import type Database from "better-sqlite3";

import { haversineKm } from "./geography";
import { amountCents } from "./money";
import { createRng, type Rng } from "./rng";
import type { SeededStation } from "./seed-customer";
import { offsetMinutes } from "./timezones";

const DAY = 86_400;
const HISTORY_FILLS = 40;
/** Far enough that no truck covers it in the hour between the two purchases (75 mph is the dashboard's limit). */
const FAR_MILES = 400;
const DEFAULT_DEF_MILLI = 3_499;

interface CaseRow {
  daysBack: number;
  /** Local wall time at the station, "HH:MM". */
  local: string;
  station: SeededStation;
  status?: "completed" | "failed";
  product?: string;
  gallonsMilli: number;
  /** Above the station's catalog price, thousandths of a dollar per gallon. */
  overCatalogMilli?: number;
  defGallonsMilli?: number;
  driverPk: number;
  cardPk: number;
  /** An exact instant instead of daysBack/local (the second stop of the travel case). */
  atSec?: number;
}

/** The rows `seedExceptionCases` adds for the demo customer: the plain history and the cases. */
export const EXCEPTION_CASE_ROWS = HISTORY_FILLS + 12;

const KM_PER_MILE = 1.609344;
/**
 * Great-circle miles with the sandbox's own haversine (sandbox/db/geography.ts): the sandbox imports nothing of the
 * app (eslint boundary), so not the dashboard's distanceMiles (lib/route/geo); 400 miles leaves ample room for the
 * radii's rounding.
 */
const milesBetween = (a: { lat: number; lng: number }, b: { lat: number; lng: number }): number =>
  haversineKm(a.lat, a.lng, b.lat, b.lng) / KM_PER_MILE;

/** The instant of a local wall time at a station `daysBack` UTC days before the anchor's day. */
function localInstant(anchorSec: number, daysBack: number, local: string, state: string): number {
  const [h, m] = local.split(":").map(Number);
  const wall = (Math.floor(anchorSec / DAY) - daysBack) * DAY + (h ?? 0) * 3600 + (m ?? 0) * 60;
  // The offset at the wall time read as UTC is right except within hours of a DST change; read it again there.
  const first = wall - offsetMinutes(state, wall) * 60;
  return wall - offsetMinutes(state, first) * 60;
}

const DEF_CASE_LOCAL = "12:15";
/** Clear of the dashboard's DEF-and-diesel window (60 minutes by default) with room to spare. */
const DEF_CASE_CLEAR_SEC = 6 * 3600;

/**
 * Days back (4 to 25: inside the default 30 days) to a day whose DEF_CASE_LOCAL lies more than DEF_CASE_CLEAR_SEC from every purchase for the
 * driver's truck: the generated history is anchored on the seeding day, so a fixed day could meet one of its diesel
 * fills (it did, some days) and the DEF case would not be one.
 */
function clearDayBack(db: Database.Database, driverPk: number, anchorSec: number, state: string): number {
  const instants = db
    .prepare(
      `SELECT t.at_utc FROM transactions t JOIN drivers d ON d.pk = t.driver_pk
       WHERE d.truck_id = (SELECT truck_id FROM drivers WHERE pk = ?)`,
    )
    .pluck()
    .all(driverPk) as number[];
  for (let back = 4; back <= 25; back++) {
    const at = localInstant(anchorSec, back, DEF_CASE_LOCAL, state);
    if (instants.every((t) => Math.abs(t - at) > DEF_CASE_CLEAR_SEC)) return back;
  }
  return 4;
}

const SATURDAY = 6;

/** Days back (3 to 9) to the Saturday whose noon lies clear of the other cases' days. */
function saturdayBack(anchorSec: number): number {
  const today = Math.floor(anchorSec / DAY);
  // Day 0 (1970-01-01) was a Thursday.
  for (let k = 3; ; k++) if ((today - k + 4) % 7 === SATURDAY) return k;
}

interface Customer {
  pk: number;
  fee_milli: number;
}

export function seedExceptionCases(
  db: Database.Database,
  seed: number,
  customerCode: string,
  stations: readonly SeededStation[],
  anchorSec: number,
): void {
  const rng = createRng(seed ^ 0x0e5c_a5e5);
  const customer = db.prepare("SELECT pk, fee_milli FROM customers WHERE code = ?").get(customerCode) as Customer;
  const rows = caseRows(db, rng, customer, stations, anchorSec);
  insertCases(db, rng, customer, rows, anchorSec);
}

/** The case driver (own card, truck T-900), and the rows: the plain history and one case per rule. */
function caseRows(
  db: Database.Database,
  rng: Rng,
  customer: Customer,
  stations: readonly SeededStation[],
  anchorSec: number,
): CaseRow[] {
  const home = stations[0];
  const far = stations.find((s) => home !== undefined && milesBetween(home.seed, s.seed) > FAR_MILES);
  const other = db
    .prepare("SELECT pk FROM drivers WHERE customer_pk = ? AND truck_id IS NOT NULL ORDER BY pk LIMIT 1")
    .get(customer.pk) as { pk: number } | undefined;
  const pool = db
    .prepare("SELECT pk FROM cards WHERE customer_pk = ? AND type = 'pool' ORDER BY pk LIMIT 1")
    .get(customer.pk) as { pk: number } | undefined;
  if (!home || !far || !other || !pool)
    throw new Error("the exception cases need two far-apart stations and a pool card");
  const otherCard =
    (
      db.prepare("SELECT card_pk AS pk FROM transactions WHERE driver_pk = ? ORDER BY pk LIMIT 1").get(other.pk) as
        { pk: number } | undefined
    )?.pk ?? pool.pk;

  // Last four digits unique within the customer, like the generated cards'.
  const used = new Set(
    db.prepare("SELECT last4 FROM cards WHERE customer_pk = ?").pluck().all(customer.pk) as string[],
  );
  let last4 = 9090;
  while (used.has(String(last4))) last4++;
  const cardPk = Number(
    db.prepare("INSERT INTO cards (customer_pk, last4, type) VALUES (?, ?, 'fleet')").run(customer.pk, String(last4))
      .lastInsertRowid,
  );
  const driverPk = Number(
    db
      .prepare("INSERT INTO drivers (id, customer_pk, name, email, truck_id) VALUES (?, ?, ?, ?, 'T-900')")
      .run(rng.uuid(), customer.pk, "Casey Quinn", "casey.quinn@prairiefreight.example").lastInsertRowid,
  );
  const own = { driverPk, cardPk, station: home };

  const rows: CaseRow[] = [
    // A plain history: diesel every ~4.5 days for six months, mid-day, 100–130 gal.
    ...Array.from({ length: HISTORY_FILLS }, (_, i) => ({
      ...own,
      daysBack: 12 + Math.round(i * 4.5),
      local: `1${String(rng.int(0, 4))}:${String(rng.int(10, 59))}`,
      gallonsMilli: rng.int(100_000, 130_000),
    })),
    // Several fills in a short time: three within 2 h 10 min on card 9090.
    { ...own, daysBack: 6, local: "09:10", gallonsMilli: 140_000 },
    { ...own, daysBack: 6, local: "10:25", gallonsMilli: 135_000 },
    { ...own, daysBack: 6, local: "11:20", gallonsMilli: 137_000 },
    // A fill larger than the truck's usual.
    { ...own, daysBack: 5, local: "13:05", gallonsMilli: 320_000 },
    // On a Saturday at noon: a weekend in local time and in UTC alike (the alternative profile sends UTC times).
    { ...own, daysBack: saturdayBack(anchorSec), local: "12:30", gallonsMilli: 110_000 },
    // Above the catalog price by $0.45, an hour before the anchor: after the station's price stamp or within a day of
    // it (stamps are at most 10 days old), so a dashboard that compares with the price observed at the time (issue 25
    // item 3) can judge it, whatever the anchor's hour.
    { ...own, daysBack: 0, local: "", atSec: anchorSec - 3600, gallonsMilli: 118_000, overCatalogMilli: 450 },
    // Unleaded in a diesel truck.
    { ...own, daysBack: 3, local: "16:40", product: "unleaded", gallonsMilli: 24_500 },
    // DEF with unleaded and no diesel, another driver's truck, on a day that truck bought nothing near noon.
    {
      driverPk: other.pk,
      cardPk: otherCard,
      station: home,
      daysBack: clearDayBack(db, other.pk, anchorSec, home.seed.state),
      local: DEF_CASE_LOCAL,
      product: "unleaded",
      gallonsMilli: 15_000,
      defGallonsMilli: 5_000,
    },
    // A failed attempt on card 9090, then a purchase on a pool card 8 minutes later.
    { ...own, daysBack: 7, local: "15:00", status: "failed", gallonsMilli: 0 },
    { ...own, cardPk: pool.pk, daysBack: 7, local: "15:08", gallonsMilli: 112_000 },
  ];
  // Impossible travel: a fill at home, then one over 400 miles away an hour later.
  const firstStop = localInstant(anchorSec, 2, "10:00", home.seed.state);
  rows.push(
    { ...own, daysBack: 2, local: "10:00", gallonsMilli: 90_000 },
    { ...own, station: far, daysBack: 2, local: "", atSec: firstStop + 3600, gallonsMilli: 95_000 },
  );
  return rows;
}

function insertCases(
  db: Database.Database,
  rng: Rng,
  customer: Customer,
  rows: readonly CaseRow[],
  anchorSec: number,
): void {
  const insert = db.prepare(
    `INSERT INTO transactions (id, customer_pk, ref, at_utc, tz_offset_min, status, product, gallons_milli, price_milli,
       amount_cents, station_pk, driver_pk, card_pk, def_gallons_milli, def_amount_cents, def_category, source, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pos', ?, ?)`,
  );
  let ref = 9_000_000;
  for (const row of rows) {
    const s = row.station.seed;
    const at = row.atSec ?? localInstant(anchorSec, row.daysBack, row.local, s.state);
    const product = row.product ?? "diesel";
    const retail = product === "diesel" ? s.prices.diesel : s.prices.unleaded;
    const price = retail - customer.fee_milli + (row.overCatalogMilli ?? 0);
    const def = row.defGallonsMilli ?? 0;
    insert.run(
      rng.uuid(),
      customer.pk,
      // Renumbered into the customer's sequence below (renumberReferences).
      `FX${String(ref++).padStart(10, "0")}`,
      at,
      offsetMinutes(s.state, at),
      row.status ?? "completed",
      product,
      row.gallonsMilli,
      price,
      amountCents(row.gallonsMilli, price),
      row.station.pk,
      row.driverPk,
      row.cardPk,
      def,
      def > 0 ? amountCents(def, s.prices.def ?? DEFAULT_DEF_MILLI) : 0,
      def > 0 ? "bulk" : "none",
      at + 60,
      at + 60,
    );
  }
  renumberReferences(db, customer.pk);
}

/**
 * References rise with time, as the generated ones do (and as the BFF's reference search assumes: it bisects the
 * newest-first pages by reference): the cases take their place in the customer's sequence, renumbered from its first
 * reference in (time, insertion) order — the generated rows before the first case keep theirs.
 */
function renumberReferences(db: Database.Database, customerPk: number): void {
  const first = db
    .prepare("SELECT min(ref) AS ref FROM transactions WHERE customer_pk = ? AND ref LIKE 'FF%'")
    .get(customerPk) as { ref: string | null };
  const base = first.ref === null ? 1_000_000 : Number(first.ref.slice(2));
  db.prepare(
    `UPDATE transactions SET ref = 'FF' || printf('%010d', ? + ordered.n - 1)
     FROM (SELECT pk, row_number() OVER (ORDER BY at_utc, pk) AS n FROM transactions WHERE customer_pk = ?) AS ordered
     WHERE transactions.pk = ordered.pk`,
  ).run(base, customerPk);
}
