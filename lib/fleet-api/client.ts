import "server-only";

import type {
  Account,
  Page,
  Station,
  StationDetail,
  StationFilter,
  Transaction,
  TransactionDetail,
  TransactionFilter,
} from "@/lib/model";

import { RequestBudget } from "./budget";
import {
  type BudgetUse,
  type CallOptions,
  type FleetApiClientOptions,
  INTERACTIVE_MAX_WAIT_MS,
  type TransactionWalkOptions,
  type WalkOptions,
} from "./client-options";
import { type Clock, systemClock } from "./clock";
import { FailedCheckLimiter, MemoryPairVerdictStore, randomPepper } from "./credential-checks";
import { credentialKey, type Credentials } from "./credentials";
import { FleetApiError, isFleetApiError } from "./errors";
import { locationQuery, type Resource, scopeName, transactionQuery, type Variants, variantsFor } from "./negotiation";
import { type GetRequest, Requester } from "./requester";
import {
  reshapeAccount,
  reshapeStationDetail,
  reshapeStationPage,
  reshapeTransactionDetail,
  reshapeTransactionPage,
} from "./reshape";
import { isAuthUnavailable } from "./upstream-errors";
import { checkBaseUrl, pathId } from "./urls";
import { walkAll, walkTransactions } from "./walks";

export const TRANSACTIONS_PAGE_MAX = 200;
const LOCATIONS_PAGE_MAX = 500;
const noQuery = (): URLSearchParams => new URLSearchParams();
/**
 * The only client of the Fleet Fuel Customer API: one function per upstream operation over one private request
 * function that does the budget, the bearer token, retries and the negotiation of request variants.
 */
export class FleetApiClient {
  readonly baseUrl: string;
  private readonly budget: RequestBudget;
  private readonly clock: Clock;
  private readonly basicFallbackMs: number;
  private readonly upstream: Requester;

  constructor(options: FleetApiClientOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl, options.allowInsecureHttp ?? false);
    this.clock = options.clock ?? systemClock;
    this.budget = options.budget ?? new RequestBudget({ clock: this.clock });
    this.basicFallbackMs = options.basicFallbackMs ?? 60_000;
    this.upstream = new Requester({
      baseUrl: this.baseUrl,
      clock: this.clock,
      budget: this.budget,
      timeoutMs: options.timeoutMs ?? 15_000,
      interactiveMaxWaitMs: options.interactiveMaxWaitMs ?? INTERACTIVE_MAX_WAIT_MS,
      maxAttempts: options.maxAttempts ?? 3,
      backoffBaseMs: options.backoffBaseMs ?? 500,
      backoffMaxMs: options.backoffMaxMs ?? 10_000,
      random: options.random ?? Math.random,
      basicFallbackMs: this.basicFallbackMs,
      failedChecks: options.failedChecks ?? new FailedCheckLimiter({ clock: this.clock }),
      verdicts: options.verdicts ?? new MemoryPairVerdictStore(),
      verdictPepper: options.verdictPepper ?? randomPepper(),
      onUpstreamCall: options.onUpstreamCall,
      tokens: options.tokens,
    });
  }

  /** Checks a key pair (POST /auth, or the cached token it already earned). Returns the scopes the upstream names, if it does. */
  async authenticate(credentials: Credentials, options: CallOptions = {}): Promise<{ scopes: string[] | null }> {
    const key = credentialKey(credentials);
    const state = this.upstream.keys.of(key);
    try {
      await this.upstream.auth.token(credentials, key, state, options.priority ?? "interactive", options.signal);
      return { scopes: state.scopes };
    } catch (error) {
      if (!isFleetApiError(error) || !isAuthUnavailable(error)) throw error;
    }
    // POST /auth is down: check the pair with HTTP Basic instead. A 403 still proves the pair is valid.
    state.basicUntilMs = this.clock.now() + this.basicFallbackMs;
    try {
      await this.getAccount(credentials, options);
    } catch (error) {
      if (!isFleetApiError(error) || error.code !== "scope_denied") throw error;
    }
    return { scopes: null };
  }

  /**
   * Whether this exact pair is known good: a valid token is held for it, or the provider accepted it within the last
   * 30 days. Costs no request. Throttles of failed sign-ins let such a pair through, so nobody can lock its owner out
   * by failing on purpose; its check (if one is needed) takes no place in the failed-check allowance either.
   */
  async recognises(credentials: Credentials): Promise<boolean> {
    const token = this.upstream.keys.peek(credentialKey(credentials))?.token;
    if (token !== undefined && this.clock.now() < token.usableUntilMs) return true;
    return this.upstream.auth.isVerified(credentials);
  }

  /**
   * How much of this key's request budget the current window holds: the budget (as learned from 429s), the requests
   * recorded in the window, and how long an upstream 429 still pauses the key. For callers that must leave part of the
   * budget to others (the price checks of the stations page); reading it costs no request.
   */
  async budgetUse(credentials: Credentials): Promise<BudgetUse> {
    const key = credentialKey(credentials);
    const sent = await this.budget.sentInWindow(key);
    const [budget, pausedForMs] = await Promise.all([this.budget.budgetOf(key), this.budget.pausedFor(key)]);
    return { budget, sent, pausedForMs, waiting: this.budget.pending(key) };
  }

  /**
   * How this upstream takes transaction `from`/`to`, as far as it has told us: `datetime` filters instants exactly,
   * `date` by the UTC days that cover them. Read after a dated `listTransactions`, it is the form that call used.
   */
  transactionDateStyle(): Variants["dateStyle"] {
    return variantsFor(this.baseUrl).dateStyle;
  }

  /** The scope a resource needs in this upstream's naming, as far as it is known yet (`read` in the primary shape). */
  scopeNameOf(resource: Resource): string {
    return scopeName(resource, variantsFor(this.baseUrl).scopeNaming);
  }

  getAccount(credentials: Credentials, options: CallOptions = {}): Promise<Account> {
    const path = "/account-details";
    return this.upstream.get(
      credentials,
      { resource: "account", path, buildQuery: noQuery, reshape: reshapeAccount },
      options,
    );
  }

  async listTransactions(
    credentials: Credentials,
    query: TransactionFilter & { page?: number; limit?: number },
    options: CallOptions = {},
  ): Promise<Page<Transaction>> {
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
      // Checked here so the upstream's 400 for it is never mistaken for a date-form mismatch.
      throw new FleetApiError({
        status: 400,
        code: "bad_request",
        message: `The start date (${query.from}) is after the end date (${query.to}).`,
        field: "from",
      });
    }
    const { build, negotiate } = transactionQuery(query);
    const request: GetRequest<Page<Transaction>> = {
      resource: "transactions",
      path: "/transactions",
      buildQuery: build,
      reshape: reshapeTransactionPage,
      negotiate,
    };
    return this.upstream.get(credentials, request, options);
  }

  async getTransaction(credentials: Credentials, id: string, options: CallOptions = {}): Promise<TransactionDetail> {
    const path = `/transactions/${pathId(id)}`;
    const request: GetRequest<TransactionDetail> = {
      resource: "transactions",
      path,
      buildQuery: noQuery,
      reshape: reshapeTransactionDetail,
    };
    return this.upstream.get(credentials, request, options);
  }

  async listLocations(
    credentials: Credentials,
    query: StationFilter & { page?: number; limit?: number },
    options: CallOptions = {},
  ): Promise<Page<Station>> {
    const { build, negotiate } = locationQuery(query);
    const request: GetRequest<Page<Station>> = {
      resource: "locations",
      path: "/locations",
      buildQuery: build,
      reshape: reshapeStationPage,
      negotiate,
    };
    return this.upstream.get(credentials, request, options);
  }

  async getLocation(credentials: Credentials, id: string, options: CallOptions = {}): Promise<StationDetail> {
    const path = `/locations/${pathId(id)}`;
    const request: GetRequest<StationDetail> = {
      resource: "locations",
      path,
      buildQuery: noQuery,
      reshape: reshapeStationDetail,
    };
    return this.upstream.get(credentials, request, options);
  }

  /** The whole station catalog matching the filter, at bulk priority by default, deduplicated by id. */
  async listAllLocations(
    credentials: Credentials,
    filter: StationFilter = {},
    options: WalkOptions = {},
  ): Promise<Station[]> {
    const limit = options.pageSize ?? LOCATIONS_PAGE_MAX;
    const callOptions = { ...options, priority: options.priority ?? "bulk" };
    return walkAll((page) => this.listLocations(credentials, { ...filter, page, limit }, callOptions), options);
  }

  /**
   * Every transaction matching the filter, newest first, walking the pages at bulk priority by default; each one
   * once, none lost while new transactions arrive (see `walkTransactions`).
   */
  iterateTransactions(
    credentials: Credentials,
    filter: TransactionFilter = {},
    options: TransactionWalkOptions = {},
  ): AsyncGenerator<Transaction> {
    const limit = options.pageSize ?? TRANSACTIONS_PAGE_MAX;
    const callOptions = { ...options, priority: options.priority ?? "bulk" };
    const fetchPage = (page: number) => this.listTransactions(credentials, { ...filter, page, limit }, callOptions);
    return walkTransactions(fetchPage, limit, options);
  }
}
