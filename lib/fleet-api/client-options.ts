import "server-only";

import type { Page, Transaction } from "@/lib/model";

import type { Priority, RequestBudget } from "./budget";
import type { Clock } from "./clock";
import type { FailedCheckAllowance, PairVerdictStore } from "./credential-checks";
import type { TokenStore } from "./token-store";

/** What callers of `FleetApiClient` give it and get from it, besides the model's types. */

export interface FleetApiClientOptions {
  /** The upstream `{base_url}`, e.g. https://api.example.com/api/v1 */
  baseUrl: string;
  /** Shared per-key request budget (one per process; a Redis store shares it between processes). */
  budget?: RequestBudget;
  clock?: Clock;
  /** Per-request timeout. */
  timeoutMs?: number;
  /**
   * How long an interactive call (a person waits) may wait out a 429 behind a spinner; beyond it the call fails at once
   * with rate_limited and the wait. Default INTERACTIVE_MAX_WAIT_MS.
   */
  interactiveMaxWaitMs?: number;
  /** Attempts for a retryable failure (429, 500, 502, 503, 504, network, timeout), GET only. */
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Jitter source, [0, 1). */
  random?: () => number;
  /**
   * Failed key-pair checks this process may cause (sign-ins, re-authentications, Basic requests), shared by every
   * key: the provider's allowance is per address, and every user reaches it from this server's one address.
   */
  failedChecks?: FailedCheckAllowance;
  /** What the provider last said about each key pair (verified, refused, refused from this address). */
  verdicts?: PairVerdictStore;
  /** Key of the HMAC naming a pair in `verdicts`; random per process by default (give one to share a store). */
  verdictPepper?: Uint8Array;
  /** The bearer token shared by several instances (Redis); unset, each process holds its own (one instance). */
  tokens?: TokenStore;
  /** After POST /auth was unavailable, use HTTP Basic for this long before trying /auth again. */
  basicFallbackMs?: number;
  /** Called once per upstream HTTP request (for logs and metrics). Never given credentials. */
  onUpstreamCall?: (call: UpstreamCall) => void;
  /** Allow plain http to a host other than loopback (a LAN test server). The key pair would travel in clear. */
  allowInsecureHttp?: boolean;
}

export interface UpstreamCall {
  method: "GET" | "POST";
  /** Path under {base_url}, without the query. */
  path: string;
  /** HTTP status, or 0 when no answer came (network, timeout, aborted). */
  status: number;
  durationMs: number;
  priority: Priority;
  auth: "bearer" | "basic" | "none";
}

/** How a request's outcome is reported (onUpstreamCall, once its duration is known from `started`). */
export type ReportUpstreamCall = (
  method: UpstreamCall["method"],
  path: string,
  status: number,
  started: number,
  priority: Priority,
  auth: UpstreamCall["auth"],
) => void;

export interface CallOptions {
  signal?: AbortSignal;
  /** Interactive (a person waits) goes before bulk (exports, catalog loading). Default interactive. */
  priority?: Priority;
  /** Never take the last quarter of the key's budget window (`reserveOf`): background work such as the mirror's sync. */
  keepReserve?: boolean;
}

export interface BudgetUse {
  /** Requests per window this key may send (the configured budget, or lower once a 429 taught us). */
  budget: number;
  /** Requests recorded in the current window. */
  sent: number;
  /** How long an upstream 429 still pauses this key; 0 when not paused. */
  pausedForMs: number;
  /** Requests of this key waiting for a slot of the budget now, per priority. */
  waiting: { interactive: number; bulk: number };
}

export interface WalkProgress {
  pagesDone: number;
  /** Pages as of the latest reply (it can grow while new transactions arrive). */
  pages: number;
  /** Matching items as of the latest reply. */
  total: number;
  /** Distinct items delivered so far. */
  delivered: number;
  /**
   * Ids the walk holds to drop repeats. The transaction walk keeps two pages' worth plus as many as the total grew
   * by during the walk, whatever the number delivered; the catalog walk keeps all (it returns them all anyway).
   */
  remembered: number;
}

export interface WalkOptions extends CallOptions {
  onProgress?: (progress: WalkProgress) => void;
  pageSize?: number;
}

export interface TransactionWalkOptions extends WalkOptions {
  /** Page 1 of the same filter and page size, already fetched (e.g. to answer errors before a download starts). */
  firstPage?: Page<Transaction>;
}

/**
 * Interactive calls wait at most this long for a 429 to pass; beyond it they fail with rate_limited and the wait. The
 * default of `interactiveMaxWaitMs` (FLEET_API_INTERACTIVE_WAIT_SECONDS; the e2e apps shorten it so the rate-limit
 * journeys need not wait out half a minute).
 */
export const INTERACTIVE_MAX_WAIT_MS = 30_000;
