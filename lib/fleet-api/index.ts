import "server-only";

export { FleetApiClient, isLoopbackHost, LOCATIONS_PAGE_MAX, TRANSACTIONS_PAGE_MAX } from "./client";
export type {
  BudgetUse,
  CallOptions,
  FleetApiClientOptions,
  TransactionWalkOptions,
  UpstreamCall,
  WalkOptions,
  WalkProgress,
} from "./client";
export { BUDGET_RESERVE_MIN, BUDGET_RESERVE_SHARE, MemoryBudgetStore, RequestBudget, reserveOf } from "./budget";
export { RecentIds } from "./recent-ids";
export type { BudgetStore, Priority } from "./budget";
export { systemClock } from "./clock";
export { FailedCheckLimiter, MemoryPairVerdictStore } from "./credential-checks";
export type { PairVerdict, PairVerdictStore } from "./credential-checks";
export type { Clock } from "./clock";
export { credentialKey, keyFingerprint } from "./credentials";
export type { Credentials } from "./credentials";
export { FleetApiError, isFleetApiError } from "./errors";
export type { FleetApiErrorCode } from "./errors";
