import "server-only";

export { MirrorStore, DEFAULT_MIRROR_PATH } from "./store";
export type { InstantRange, MirrorStoreOptions, StatusCounts, SyncState } from "./store";
export { MirrorSync, DEFAULT_LOOKBACK_MS, utcDay } from "./sync";
export type { MirrorSyncOptions, RunOptions, SyncOutcome, SyncPhase, SyncProgress, VerificationReport } from "./sync";
export { MemorySyncLock } from "./lock";
export type { SyncLease, SyncLock } from "./lock";
export { countsByStatus, listPage, SORT_COLUMNS, stateProductTotals, summarize } from "./queries";
export type { MirrorFilter, MirrorPage, PageQuery, SortColumn, StateProductRow, SummaryQuery } from "./queries";
