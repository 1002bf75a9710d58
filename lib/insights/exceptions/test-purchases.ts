import { groupHistory } from "./history";
import { DEFAULT_EXCEPTION_THRESHOLDS, type ExceptionThresholds, type Purchase, type RuleInput } from "./types";

/** Purchases for the rules' unit tests: a Tuesday-noon UTC diesel fill unless told otherwise. */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
/** Tuesday 2026-11-17 12:00 UTC. */
export const TUESDAY_NOON = Date.UTC(2026, 10, 17, 12);

let next = 0;

export function purchase(overrides: Partial<Purchase> = {}): Purchase {
  next++;
  return {
    id: `tx-${String(next).padStart(5, "0")}`,
    atMs: TUESDAY_NOON,
    offsetMin: null,
    status: "completed",
    product: "diesel",
    gallonsMilli: 100_000,
    priceMilli: 3_859,
    stationId: "st-a",
    stationName: "Pilot #101",
    driverId: "dr-1",
    driverName: "Ada Lovelace",
    truckId: "T-100",
    cardLast4: "4480",
    defGallonsMilli: 0,
    ...overrides,
  };
}

export function input(
  purchases: Purchase[],
  options: {
    history?: Purchase[];
    catalog?: RuleInput["catalog"];
    observed?: RuleInput["observed"];
    thresholds?: Partial<ExceptionThresholds>;
  } = {},
): RuleInput {
  return {
    purchases: [...purchases].sort((a, b) => a.atMs - b.atMs),
    history: groupHistory(options.history ?? []),
    catalog: options.catalog ?? null,
    observed: options.observed ?? null,
    thresholds: { ...DEFAULT_EXCEPTION_THRESHOLDS, ...options.thresholds },
  };
}

/** `n` earlier fills of the truck, a day apart, with the given gallons (thousandths), cycling. */
export function historyOf(n: number, gallonsMilli: readonly number[], overrides: Partial<Purchase> = {}): Purchase[] {
  return Array.from({ length: n }, (_, i) =>
    purchase({
      atMs: TUESDAY_NOON - (i + 30) * 24 * HOUR,
      gallonsMilli: gallonsMilli[i % gallonsMilli.length] ?? 0,
      ...overrides,
    }),
  );
}
