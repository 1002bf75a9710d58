import { type Expression, sql, type SqlBool } from "kysely";

import { toMinorUnits, type TransactionStatus } from "@/lib/model";

import { type LocalDays, localDayWhere } from "./local-dates";
import type { Eb, InstantRange } from "./types";

/** The filter every mirror query shares, as one SQL condition that names the customer first (every index does). */

export interface MirrorFilter extends InstantRange {
  driverId?: string | undefined;
  cardLast4?: string | undefined;
  truckId?: string | undefined;
  stationId?: string | undefined;
  state?: string | undefined;
  product?: string | undefined;
  status?: TransactionStatus | undefined;
  /** Decimal strings ("12.50"), inclusive. */
  amountMin?: string | undefined;
  amountMax?: string | undefined;
  gallonsMin?: string | undefined;
  gallonsMax?: string | undefined;
  /** Case-insensitive substring of the station name, driver name, card last four or reference. */
  search?: string | undefined;
  /** False: `search` matches what the upstream's does (station name, driver name, card last four), not references. */
  searchReferences?: boolean | undefined;
  /** One reference, case-insensitively (the BFF's reference lookup: lib/bff/reference-search). */
  reference?: string | undefined;
  /** Purchases whose local date (transaction_at with its own offset) lies in these days (./local-dates). */
  localDays?: LocalDays | undefined;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function whereOf(eb: Eb, customerId: string, f: MirrorFilter): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb("customer_id", "=", customerId)];
  if (f.fromMs !== undefined) all.push(eb("at_ms", ">=", f.fromMs));
  if (f.toMs !== undefined) all.push(eb("at_ms", "<", f.toMs));
  if (f.driverId !== undefined) all.push(eb("driver_id", "=", f.driverId));
  if (f.cardLast4 !== undefined) all.push(eb("card_last4", "=", f.cardLast4));
  if (f.truckId !== undefined) all.push(eb("truck_id", "=", f.truckId));
  if (f.stationId !== undefined) all.push(eb("station_id", "=", f.stationId));
  if (f.state !== undefined) all.push(eb("station_state", "=", f.state));
  // Case-insensitively: the list's parameter is lower-cased, the rows keep the provider's spelling ("Unleaded 87").
  if (f.product !== undefined) all.push(sql<SqlBool>`lower(product) = ${f.product.toLowerCase()}`);
  if (f.status !== undefined) all.push(eb("status", "=", f.status));
  if (f.amountMin !== undefined) all.push(eb("amount_cents", ">=", Number(toMinorUnits(f.amountMin, 2))));
  if (f.amountMax !== undefined) all.push(eb("amount_cents", "<=", Number(toMinorUnits(f.amountMax, 2))));
  if (f.gallonsMin !== undefined) all.push(eb("gallons_milli", ">=", Number(toMinorUnits(f.gallonsMin, 3))));
  if (f.gallonsMax !== undefined) all.push(eb("gallons_milli", "<=", Number(toMinorUnits(f.gallonsMax, 3))));
  if (f.search !== undefined && f.search !== "") {
    const pattern = `%${escapeLike(f.search.toLowerCase())}%`;
    // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
    const like = (column: "station_name" | "driver_name" | "card_last4" | "reference") =>
      sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    const names = [like("station_name"), like("driver_name"), like("card_last4")];
    all.push(eb.or(f.searchReferences === false ? names : [...names, like("reference")]));
  }
  if (f.reference !== undefined) all.push(sql<SqlBool>`lower(reference) = ${f.reference.toLowerCase()}`);
  if (f.localDays !== undefined) all.push(localDayWhere(eb, f.localDays));
  return eb.and(all);
}
