import "server-only";

/**
 * The mirror's one way in: code outside lib/mirror imports these names from `@/lib/mirror`, never a module behind it
 * (ESLint's boundaries/entry, scripts/lint/boundaries.mjs, refuses `@/lib/mirror/<module>` and relative spellings of
 * it; tests inside lib/mirror may reach any module). Server code only: it opens SQLite (better-sqlite3) and PostgreSQL
 * (pg), and no browser module imports it (the browser's import rules refuse lib/mirror), so there is no browser-safe
 * entry: a helper the pages need belongs in lib/model.
 */

// The store and its sync.
export type { SyncLock } from "./lock";
export { MemorySyncLock } from "./lock";
export { RedisSyncLock } from "./lock-redis";
export { DEFAULT_MIRROR_PATH, MirrorStore } from "./store";
export { MirrorSync } from "./sync";
export { DAY_MS, utcDay } from "./sync-days";
export type { SyncOutcome, SyncPhase, SyncProgress } from "./sync-types";
export type { CatalogStation, InstantRange, MirrorCatalog, PriceRecord, SyncState } from "./types";

// The transactions list, its totals, summary, facets and export.
export { exportRows } from "./export-rows";
export { facetsOf } from "./facets";
export type { MirrorFilter } from "./filter";
export { whereOf } from "./filter";
export type { MirrorPage } from "./queries";
export { countsByStatus, listPage, stateProductTotals } from "./queries";
export { summarize } from "./summary";

// Purchase-local dates.
export { localDateOf, localDayWhere, localMsOf, OFFSET_MARGIN_MS, scanWindowOf } from "./local-dates";

// The insights' figures: drill-downs, period totals, settling, the jurisdiction report, the exceptions' history.
export type { RankedFigures } from "./drilldowns";
export { detailFigures, keyKnown, rankedFigures, ZERO_FIGURES } from "./drilldowns";
export { labelOf } from "./drilldowns-figures";
export { readFillHistory } from "./fill-history";
export { emptyJurisdictionReport, jurisdictionReport, withPrevious } from "./jurisdictions";
export { periodTotals, spendTotals } from "./period-totals";
export { settlingByKey, settlingOf } from "./settling";

// The station catalog, its price history and the stored savings comparisons.
export {
  catalogFacts,
  countBefore,
  lastCatalogWalkMs,
  readCatalog,
  recordCatalogWalk,
  stationSightings,
} from "./catalog";
export { enqueueCompletedFills, FLAG, lockComparisons, markFillsBetween } from "./comparisons";
export { epochMs } from "./rows";

// Operators: what each customer holds, retention, the API keys' verdicts.
export { readKeyScope, writeKeyScope } from "./key-scopes";
export type { CustomerUsage } from "./usage";
export { customerUsage, purgeUnused, storeBytes } from "./usage";

// The bench and the tests' helpers: a store filled or migrated directly, its rollups rebuilt from its rows.
export { rebuildLocalBlocks } from "./local-blocks";
export { rebuildLocalRollups } from "./local-rollups";
export { mirrorMigrations } from "./migrations";
export { rebuildRollups } from "./rollups";
export { toRow } from "./rows";
export type { MirrorDatabase } from "./schema";
