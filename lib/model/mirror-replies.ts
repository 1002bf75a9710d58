import type { MetricId, SpendComparison } from "./metrics";
import type { SummaryTotals, TransactionSummary } from "./summary";

/**
 * The contract of the mirror's replies (issue 15), zod-free: the operations (lib/bff/<resource>/) answer these and the
 * browser's queries (lib/queries) read them.
 */

/**
 * Where a reply's rows came from. `mirror`: the local copy, exact as of `asOf` (the last head sync, ISO instant).
 * `upstream`: the provider's API, live; `note` says in a sentence why the local copy did not answer (null when it
 * simply is not in use for this session).
 */
export type DataOrigin =
  { source: "mirror"; asOf: string; note: null } | { source: "upstream"; asOf: null; note: string | null };

/** The list's filters only the mirror can answer (query parameter names of `GET /api/transactions` and the export). */
export const MIRROR_FILTER_PARAMS = [
  "driver",
  "card",
  "truck",
  "station",
  "state",
  "product",
  "amountMin",
  "amountMax",
  "gallonsMin",
  "gallonsMax",
  /** `dates=local`: `from`/`to` are each purchase's local date (lib/model/insights), not days of `tz`. */
  "dates",
] as const;

/** Every parameter only the mirror answers: its filters and the sort (any order but the upstream's newest first). */
export const MIRROR_ONLY_FILTERS = [...MIRROR_FILTER_PARAMS, "sort", "dir"] as const;
export type MirrorOnlyFilter = (typeof MIRROR_ONLY_FILTERS)[number];

/** `sort=` values of the list (the mirror's SORT_COLUMNS keys); `dir=asc|desc`. Default: at, desc. */
export const LIST_SORT_COLUMNS = [
  "at",
  "amount",
  "gallons",
  "pricePerGallon",
  "status",
  "product",
  "driver",
  "station",
  "state",
  "card",
  "truck",
  "reference",
] as const;
export type ListSortColumn = (typeof LIST_SORT_COLUMNS)[number];

/** `GET /api/transactions/summary`: the range's summary, the previous period of equal length, and the source. */
export type TransactionSummaryReply = TransactionSummary & {
  /** The period of equal length just before `from` (its totals only); null when not known (upstream, no coverage). */
  previous: { from: string; to: string; totals: SummaryTotals } | null;
  /**
   * The period change the overview states, by the drill-downs' metric (lib/model/metrics "spend.local-date": the
   * same days and definition as /drivers and the reports); null without the local copy of both periods.
   */
  comparison: SpendComparison | null;
  /** The metric of `topDrivers` (and `topStations`): "spend.local-date" from the local copy, else "spend.utc-day". */
  rankingMetric: MetricId;
  origin: DataOrigin;
};

/** The values the mirror-only filters can take for one customer (the distinct ones of its mirrored rows). */
export interface TransactionFacets {
  drivers: { id: string; name: string; truck: string | null }[];
  cards: string[];
  trucks: string[];
  stations: { id: string; name: string; city: string; state: string }[];
  states: string[];
  products: string[];
}

/** `GET /api/transactions/facets`: the values the mirror-only filters can take for this customer (from the mirror). */
export type TransactionFacetsReply = TransactionFacets & { origin: DataOrigin };

/**
 * `GET /api/sync`: where the mirror of the signed-in customer stands. `state`: `off` (no mirror for this session: the
 * key lacks the transactions scope, or the mirror is disabled), `starting` (nothing synced yet), `backfilling` (the
 * head is current, older history still loading), `ready` (history complete), `error` (the last run failed; `error`
 * says why in a sentence). Instants are ISO strings.
 */
export interface SyncStatusReply {
  state: "off" | "starting" | "backfilling" | "ready" | "error";
  /** True while a sync run (head, backfill or verification) is in progress. */
  running: boolean;
  /** The oldest and newest instants the mirror covers exactly; null before the first head sync. */
  coverage: { from: string | null; to: string | null };
  rows: number;
  lastHeadSync: string | null;
  lastVerification: { at: string; ok: boolean; repairedDays: number } | null;
  backfill: {
    done: number;
    expected: number | null;
    complete: boolean;
    /** Time left at the pace the budget allows, ms; null when unknown. */
    timeLeftMs: number | null;
  };
  /**
   * The earliest instant a "sync now" (POST /api/sync) starts another head sync (at most one per customer every 30 s,
   * whatever is posted); null when this session has no local copy.
   */
  nextHeadSync: string | null;
  /** A sentence for the person (never a secret or a stack), or null. */
  error: string | null;
}
