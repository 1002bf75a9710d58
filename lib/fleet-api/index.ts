import "server-only";

export { FleetApiClient, LOCATIONS_PAGE_MAX, TRANSACTIONS_PAGE_MAX } from "./client";
export { isLoopbackHost } from "./urls";
export type {
  BudgetUse,
  CallOptions,
  FleetApiClientOptions,
  TransactionWalkOptions,
  UpstreamCall,
  WalkOptions,
  WalkProgress,
} from "./client-options";
export { BUDGET_RESERVE_MIN, BUDGET_RESERVE_SHARE, RequestBudget, reserveOf } from "./budget";
export { MemoryBudgetStore } from "./budget-store";
export { RecentIds } from "./recent-ids";
export type { Priority } from "./budget";
export type { BudgetStore } from "./budget-store";
export { systemClock } from "./clock";
export { FailedCheckLimiter, MemoryPairVerdictStore } from "./credential-checks";
export type { PairVerdict, PairVerdictStore } from "./credential-checks";
export type { Clock } from "./clock";
export { credentialKey, keyFingerprint } from "./credentials";
export type { Credentials } from "./credentials";
export { FleetApiError, isFleetApiError } from "./errors";
export type { FleetApiErrorCode } from "./errors";
