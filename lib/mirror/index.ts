import "server-only";

export { exportRows } from "./export-rows";
export { facetsOf } from "./facets";
export type { MirrorFilter } from "./filter";
export type { LocalDays } from "./local-dates";
export {
  LOCAL_MS,
  localDateOf,
  localDayWhere,
  localHourOf,
  localMsOf,
  localWeekdayOf,
  scanWindowOf,
} from "./local-dates";
export type { SyncLease, SyncLock } from "./lock";
export { MemorySyncLock, SyncLeaseLost } from "./lock";
export { RedisSyncLock } from "./lock-redis";
export { periodTotals } from "./period-totals";
export type { MirrorPage, PageQuery, SortColumn, StateProductRow } from "./queries";
export { countsByStatus, listPage, SORT_COLUMNS, stateProductTotals } from "./queries";
export type { InstantRange, MirrorStoreOptions, StatusCounts, SyncState } from "./store";
export { DEFAULT_MIRROR_PATH, MirrorStore } from "./store";
export type { SummaryQuery } from "./summary";
export { summarize } from "./summary";
export { DEFAULT_LOOKBACK_MS, MirrorSync } from "./sync";
export { utcDay } from "./sync-days";
export type { MirrorSyncOptions, RunOptions, SyncOutcome, SyncPhase, SyncProgress } from "./sync-types";
export type { VerificationReport } from "./sync-verify";
