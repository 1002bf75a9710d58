/**
 * The savings' shared types, apart from ./savings.ts: ./savings-top.ts, which ./savings.ts imports, needs them too
 * (an import back would be a cycle: scripts/lint/import-cycles.test.ts).
 */

/** One completed fill as the mirror holds it, with its purchase-local date. */
export interface SavingsFill {
  id: string;
  /** The fill's details below are read for the largest missed savings only (savingsFor); "" until then. */
  reference: string;
  atMs: number;
  offsetMin: number | null;
  localDate: string;
  stationId: string;
  stationName: string;
  stationCity: string;
  stationState: string;
  driverId: string;
  driverName: string;
  product: string;
  gallonsMilli: number;
  priceMilli: number;
}
