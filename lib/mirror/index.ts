import "server-only";

export { MirrorStore, DEFAULT_MIRROR_PATH } from "./store";
export type { InstantRange, MirrorStoreOptions, StatusCounts, SyncState } from "./store";
export { MirrorSync, DEFAULT_LOOKBACK_MS } from "./sync";
export type { MirrorSyncOptions, RunOptions, SyncOutcome, SyncPhase, SyncProgress } from "./sync-types";
export { utcDay } from "./sync-days";
export type { VerificationReport } from "./sync-verify";
export { MemorySyncLock } from "./lock";
export type { SyncLease, SyncLock } from "./lock";
export { countsByStatus, listPage, SORT_COLUMNS, stateProductTotals } from "./queries";
export type { MirrorPage, PageQuery, SortColumn, StateProductRow } from "./queries";
export type { MirrorFilter } from "./filter";
export { summarize } from "./summary";
export type { SummaryQuery } from "./summary";
