import "server-only";

export type { Priority } from "./budget";
export { RequestBudget, reserveOf } from "./budget";
export type { BudgetStore } from "./budget-store";
export { RedisBudgetStore } from "./budget-store-redis";
export { FleetApiClient, TRANSACTIONS_PAGE_MAX } from "./client";
export type {
  BudgetUse,
  CallOptions,
  FleetApiClientOptions,
  TransactionWalkOptions,
  UpstreamCall,
  WalkOptions,
  WalkProgress,
} from "./client-options";
export type { Clock } from "./clock";
export type { FailedCheckAllowance, PairVerdict, PairVerdictStore } from "./credential-checks";
export { FailedCheckLimiter } from "./credential-checks";
export { RedisFailedCheckLimiter, RedisPairVerdictStore } from "./credential-checks-redis";
export { SqlitePairVerdictStore } from "./credential-checks-sqlite";
export type { Credentials } from "./credentials";
export { credentialKey, keyFingerprint } from "./credentials";
export type { FleetApiErrorCode } from "./errors";
export { FleetApiError, isFleetApiError } from "./errors";
export { RecentIds } from "./recent-ids";
export type { TokenStore } from "./token-store";
export { RedisTokenStore } from "./token-store";
export { isLoopbackHost } from "./urls";
