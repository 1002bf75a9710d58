import "server-only";
import type { Account, Page, Station, StationDetail, StationFilter, Transaction, TransactionDetail, TransactionFilter } from "@/lib/model";
import { parseRetryAfter, RequestBudget, type Priority } from "./budget";
import { systemClock, type Clock } from "./clock";
import { credentialKey, type Credentials } from "./credentials";
import { FleetApiError, isFleetApiError } from "./errors";
import { abortedError, replyError, send, type UpstreamReply } from "./http";
import { dateBound, scopeName, variantsFor, type Resource, type Variants } from "./negotiation";
import { reshapeAccount, reshapeAuth, reshapeStationDetail, reshapeStationPage, reshapeTransactionDetail, reshapeTransactionPage } from "./reshape";

export interface FleetApiClientOptions {
  /** The upstream `{base_url}`, e.g. https://api.example.com/api/v1 */
  baseUrl: string;
  /** Shared per-key request budget (one per process; a Redis store shares it between processes). */
  budget?: RequestBudget;
  clock?: Clock;
  /** Per-request timeout. */
  timeoutMs?: number;
  /** Attempts for a retryable failure (429, 500, 502, 503, 504, network, timeout), GET only. */
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Jitter source, [0, 1). */
  random?: () => number;
  /** Renew a bearer token this long before it expires. */
  tokenRefreshMarginMs?: number;
  /** After POST /auth was unavailable, use HTTP Basic for this long before trying /auth again. */
  basicFallbackMs?: number;
  /** Called once per upstream HTTP request (for logs and metrics). Never given credentials. */
  onUpstreamCall?: (call: UpstreamCall) => void;
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

export interface CallOptions {
  signal?: AbortSignal;
  /** Interactive (a person waits) goes before bulk (exports, catalog loading). Default interactive. */
  priority?: Priority;
}

export interface WalkProgress {
  pagesDone: number;
  /** Pages as of the latest reply (it can grow while new transactions arrive). */
  pages: number;
  /** Matching items as of the latest reply. */
  total: number;
  /** Distinct items delivered so far. */
  delivered: number;
}

export interface WalkOptions extends CallOptions {
  onProgress?: (progress: WalkProgress) => void;
  pageSize?: number;
}

interface TokenEntry {
  token: string;
  expiresAtMs: number;
}

interface KeyState {
  token: TokenEntry | undefined;
  inflight: Promise<TokenEntry> | undefined;
  basicUntilMs: number;
  scopes: string[] | null;
}

export const TRANSACTIONS_PAGE_MAX = 200;
export const LOCATIONS_PAGE_MAX = 500;
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const MAX_ID_LENGTH = 200;
/** A 429 without Retry-After pauses the key for one budget window (what the budget does too). */
const DEFAULT_RATE_LIMIT_PAUSE_MS = 60_000;

/**
 * The only client of the Fleet Fuel Customer API: one function per upstream operation over one private request
 * function that does the budget, the bearer token, retries and the negotiation of request variants.
 */
export class FleetApiClient {
  readonly baseUrl: string;
  private readonly budget: RequestBudget;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly random: () => number;
  private readonly tokenRefreshMarginMs: number;
  private readonly basicFallbackMs: number;
  private readonly onUpstreamCall: ((call: UpstreamCall) => void) | undefined;
  private readonly keys = new Map<string, KeyState>();

  constructor(options: FleetApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.clock = options.clock ?? systemClock;
    this.budget = options.budget ?? new RequestBudget({ clock: this.clock });
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 10_000;
    this.random = options.random ?? Math.random;
    this.tokenRefreshMarginMs = options.tokenRefreshMarginMs ?? 60_000;
    this.basicFallbackMs = options.basicFallbackMs ?? 60_000;
    this.onUpstreamCall = options.onUpstreamCall;
  }

  /** Checks a key pair (POST /auth, or the cached token it already earned). Returns the scopes the upstream names, if it does. */
  async authenticate(credentials: Credentials, options: CallOptions = {}): Promise<{ scopes: string[] | null }> {
    const key = credentialKey(credentials);
    const state = this.state(key);
    await this.token(credentials, key, state, options.priority ?? "interactive", options.signal);
    return { scopes: state.scopes };
  }

  getAccount(credentials: Credentials, options: CallOptions = {}): Promise<Account> {
    return this.get(credentials, "account", "/account-details", () => new URLSearchParams(), reshapeAccount, options);
  }

  listTransactions(credentials: Credentials, query: TransactionFilter & { page?: number; limit?: number }, options: CallOptions = {}): Promise<Page<Transaction>> {
    const hasDates = query.from !== undefined || query.to !== undefined;
    return this.get(
      credentials,
      "transactions",
      "/transactions",
      (v) => {
        const params = new URLSearchParams();
        if (query.page !== undefined) params.set("page", String(query.page));
        if (query.limit !== undefined) params.set("limit", String(query.limit));
        if (query.from !== undefined) params.set("from", dateBound(query.from, "from", v.dateStyle));
        if (query.to !== undefined) params.set("to", dateBound(query.to, "to", v.dateStyle));
        if (query.status !== undefined) params.set("status", query.status);
        if (query.search !== undefined) params.set("search", query.search);
        return params;
      },
      reshapeTransactionPage,
      options,
      (field, v) => {
        if (!hasDates || (field !== "from" && field !== "to")) return false;
        v.dateStyle = v.dateStyle === "date" ? "datetime" : "date";
        return true;
      },
    );
  }

  async getTransaction(credentials: Credentials, id: string, options: CallOptions = {}): Promise<TransactionDetail> {
    return this.get(credentials, "transactions", `/transactions/${pathId(id)}`, () => new URLSearchParams(), reshapeTransactionDetail, options);
  }

  listLocations(credentials: Credentials, query: StationFilter & { page?: number; limit?: number }, options: CallOptions = {}): Promise<Page<Station>> {
    return this.get(
      credentials,
      "locations",
      "/locations",
      (v) => {
        const params = new URLSearchParams();
        if (query.page !== undefined) params.set("page", String(query.page));
        if (query.limit !== undefined) params.set("limit", String(query.limit));
        if (query.brand !== undefined) params.set("brand", query.brand);
        if (query.state !== undefined) params.set("state", query.state);
        if (query.search !== undefined) params.set(v.locationSearch, query.search);
        return params;
      },
      reshapeStationPage,
      options,
      (field, v) => {
        if (query.search === undefined || (field !== "search" && field !== "q")) return false;
        v.locationSearch = v.locationSearch === "search" ? "q" : "search";
        return true;
      },
    );
  }

  async getLocation(credentials: Credentials, id: string, options: CallOptions = {}): Promise<StationDetail> {
    return this.get(credentials, "locations", `/locations/${pathId(id)}`, () => new URLSearchParams(), reshapeStationDetail, options);
  }

  /** The whole station catalog matching the filter, at bulk priority by default, deduplicated by id. */
  async listAllLocations(credentials: Credentials, filter: StationFilter = {}, options: WalkOptions = {}): Promise<Station[]> {
    const out: Station[] = [];
    const pageSize = options.pageSize ?? LOCATIONS_PAGE_MAX;
    await this.walk((page) => this.listLocations(credentials, { ...filter, page, limit: pageSize }, { ...options, priority: options.priority ?? "bulk" }), pageSize, options, (item: Station) => {
      out.push(item);
    });
    return out;
  }

  /**
   * Every transaction matching the filter, newest first, walking the pages at bulk priority by default. New
   * transactions arriving during a long walk shift later pages; items are deduplicated by id so none is
   * delivered twice, and the walk goes on until a short page so none is lost.
   */
  async *iterateTransactions(credentials: Credentials, filter: TransactionFilter = {}, options: WalkOptions = {}): AsyncGenerator<Transaction> {
    const pageSize = options.pageSize ?? TRANSACTIONS_PAGE_MAX;
    const seen = new Set<string>();
    let pagesDone = 0;
    for (let page = 1; ; page++) {
      const result = await this.listTransactions(credentials, { ...filter, page, limit: pageSize }, { ...options, priority: options.priority ?? "bulk" });
      for (const item of result.items) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        yield item;
      }
      pagesDone++;
      options.onProgress?.({ pagesDone, pages: result.pages, total: result.total, delivered: seen.size });
      if (result.items.length < pageSize || page >= result.pages) return;
    }
  }

  private async walk<T extends { id: string }>(fetchPage: (page: number) => Promise<Page<T>>, pageSize: number, options: WalkOptions, deliver: (item: T) => void): Promise<void> {
    const seen = new Set<string>();
    for (let page = 1; ; page++) {
      const result = await fetchPage(page);
      for (const item of result.items) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        deliver(item);
      }
      options.onProgress?.({ pagesDone: page, pages: result.pages, total: result.total, delivered: seen.size });
      if (result.items.length < pageSize || page >= result.pages) return;
    }
  }

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { token: undefined, inflight: undefined, basicUntilMs: 0, scopes: null };
      this.keys.set(key, state);
    }
    return state;
  }

  /**
   * One GET with everything around it. `negotiate` is asked, once per call, whether a 400 naming `field` is a
   * request variant it can switch (then the call is repeated with the other form).
   */
  private async get<T>(
    credentials: Credentials,
    resource: Resource,
    path: string,
    buildQuery: (variants: Variants) => URLSearchParams,
    reshape: (body: unknown) => T,
    options: CallOptions,
    negotiate?: (field: string | undefined, variants: Variants) => boolean,
  ): Promise<T> {
    const key = credentialKey(credentials);
    const state = this.state(key);
    const variants = variantsFor(this.baseUrl);
    const priority = options.priority ?? "interactive";
    const signal = options.signal;
    let failures = 0;
    let hasReauthenticated = false;
    let hasNegotiated = false;
    for (;;) {
      if (signal?.aborted) throw abortedError(signal);
      const auth = await this.authorization(credentials, key, state, priority, signal);
      await this.acquire(key, priority, signal);
      const query = buildQuery(variants).toString();
      const started = this.clock.now();
      let reply: UpstreamReply;
      try {
        reply = await send(`${this.baseUrl}${path}${query ? `?${query}` : ""}`, { method: "GET", headers: { Accept: "application/json", Authorization: auth.header } }, { timeoutMs: this.timeoutMs, signal });
      } catch (error) {
        this.report("GET", path, 0, started, priority, auth.kind);
        if (!isFleetApiError(error) || error.code === "aborted" || ++failures >= this.maxAttempts) throw error;
        await this.backoff(failures, signal);
        continue;
      }
      this.report("GET", path, reply.status, started, priority, auth.kind);

      if (reply.status >= 200 && reply.status < 300) {
        if (reply.malformed) throw new FleetApiError({ status: reply.status, code: "invalid_response", message: "The Fleet Fuel API sent a reply that is not valid JSON." });
        return reshape(reply.body);
      }
      const error = replyError(reply);
      if (reply.status === 401 && auth.kind === "bearer" && !hasReauthenticated) {
        // The token expired or was revoked early: drop it, get a new one, try once more.
        hasReauthenticated = true;
        if (state.token?.token === auth.token) state.token = undefined;
        continue;
      }
      if (reply.status === 400 && !hasNegotiated && negotiate?.(error.field, variants)) {
        hasNegotiated = true;
        continue;
      }
      if (reply.status === 403 && error.code === "scope_denied") throw this.scopeError(error, resource, variants);
      if (reply.status === 429) {
        // Pause the key (every request of it waits) and learn a lower budget if we thought we had some left.
        const retryAfterMs = parseRetryAfter(reply.retryAfter, this.clock.now());
        await this.budget.noteRateLimited(key, retryAfterMs);
        const waitMs = retryAfterMs ?? DEFAULT_RATE_LIMIT_PAUSE_MS;
        if (++failures >= this.maxAttempts) {
          throw new FleetApiError({ status: 429, code: "rate_limited", message: error.message, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) });
        }
        continue; // the budget holds every request of this key until the pause ends
      }
      if (RETRYABLE_STATUSES.has(reply.status) && ++failures < this.maxAttempts) {
        await this.backoff(failures, signal);
        continue;
      }
      throw error;
    }
  }

  private scopeError(error: FleetApiError, resource: Resource, variants: Variants): FleetApiError {
    if (error.scope !== undefined) variants.scopeNaming = error.scope === "read" ? "read" : "granular";
    const scope = error.scope ?? scopeName(resource, variants.scopeNaming);
    return new FleetApiError({ status: 403, code: "scope_denied", message: error.message, scope });
  }

  private async acquire(key: string, priority: Priority, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.budget.acquire(key, priority, signal);
    } catch (error) {
      if (signal?.aborted) throw abortedError(signal);
      throw error;
    }
  }

  private async backoff(failures: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.clock.sleep(this.backoffDelay(failures), signal);
    } catch (error) {
      if (signal?.aborted) throw abortedError(signal);
      throw error;
    }
  }

  /** Exponential backoff with jitter: base·2^(n−1), capped, scaled by a random factor in [0.5, 1). */
  private backoffDelay(failures: number): number {
    const exponential = Math.min(this.backoffMaxMs, this.backoffBaseMs * 2 ** (failures - 1));
    return Math.round(exponential * (0.5 + this.random() / 2));
  }

  private report(method: "GET" | "POST", path: string, status: number, started: number, priority: Priority, auth: UpstreamCall["auth"]): void {
    this.onUpstreamCall?.({ method, path, status, durationMs: this.clock.now() - started, priority, auth });
  }

  /** Bearer when we can get a token; HTTP Basic for a while when POST /auth itself is unavailable. */
  private async authorization(
    credentials: Credentials,
    key: string,
    state: KeyState,
    priority: Priority,
    signal: AbortSignal | undefined,
  ): Promise<{ kind: "bearer" | "basic"; header: string; token?: string }> {
    const basic = { kind: "basic" as const, header: `Basic ${Buffer.from(`${credentials.keyId}:${credentials.secret}`).toString("base64")}` };
    if (state.basicUntilMs > this.clock.now()) return basic;
    try {
      const entry = await this.token(credentials, key, state, priority, signal);
      return { kind: "bearer", header: `Bearer ${entry.token}`, token: entry.token };
    } catch (error) {
      if (isFleetApiError(error) && isAuthUnavailable(error)) {
        state.basicUntilMs = this.clock.now() + this.basicFallbackMs;
        return basic;
      }
      throw error;
    }
  }

  /** The key's bearer token: cached until shortly before it expires; concurrent callers share one POST /auth. */
  private token(credentials: Credentials, key: string, state: KeyState, priority: Priority, signal: AbortSignal | undefined): Promise<TokenEntry> {
    if (state.token && this.clock.now() < state.token.expiresAtMs - this.tokenRefreshMarginMs) return Promise.resolve(state.token);
    if (!state.inflight) {
      const inflight = this.postAuth(credentials, key, state, priority).finally(() => {
        if (state.inflight === inflight) state.inflight = undefined;
      });
      inflight.catch(() => undefined); // waiters handle the failure; an abandoned flight must not be "unhandled"
      state.inflight = inflight;
    }
    return raceAbort(state.inflight, signal);
  }

  private async postAuth(credentials: Credentials, key: string, state: KeyState, priority: Priority): Promise<TokenEntry> {
    let failures = 0;
    for (;;) {
      // Shared by every waiter, so no single caller's signal may cancel it; the timeout bounds it.
      await this.budget.acquire(key, priority);
      const started = this.clock.now();
      let reply: UpstreamReply;
      try {
        reply = await send(
          `${this.baseUrl}/auth`,
          { method: "POST", headers: { Accept: "application/json", "Content-Type": "application/json" }, body: JSON.stringify({ key_id: credentials.keyId, secret: credentials.secret }) },
          { timeoutMs: this.timeoutMs },
        );
      } catch (error) {
        this.report("POST", "/auth", 0, started, priority, "none");
        throw error;
      }
      this.report("POST", "/auth", reply.status, started, priority, "none");
      if (reply.status >= 200 && reply.status < 300) {
        if (reply.malformed) throw new FleetApiError({ status: reply.status, code: "invalid_response", message: "The Fleet Fuel API sent a token reply that is not valid JSON." });
        const grant = reshapeAuth(reply.body);
        const entry = { token: grant.accessToken, expiresAtMs: started + grant.expiresInSeconds * 1000 };
        state.token = entry;
        state.scopes = grant.scopes;
        if (grant.scopes !== null) variantsFor(this.baseUrl).scopeNaming = "granular";
        return entry;
      }
      if (reply.status === 429 && ++failures < this.maxAttempts) {
        await this.budget.noteRateLimited(key, parseRetryAfter(reply.retryAfter, this.clock.now()));
        continue;
      }
      throw replyError(reply);
    }
  }
}

/** POST /auth could not be used at all (as opposed to: it said the credentials are wrong). */
function isAuthUnavailable(error: FleetApiError): boolean {
  return error.code === "network_error" || error.code === "timeout" || [404, 405, 500, 501, 502, 503, 504].includes(error.status);
}

/**
 * An id as exactly one path segment: encodeURIComponent escapes "/", "?", "#" and "%"; the dot segments "." and
 * "..", which URL parsing would resolve, and absurdly long ids are refused with not_found without asking the upstream.
 */
function pathId(id: string): string {
  if (id.length === 0 || id.length > MAX_ID_LENGTH || /^\.{1,2}$/.test(id)) {
    throw new FleetApiError({ status: 404, code: "not_found", message: "No such item." });
  }
  return encodeURIComponent(id);
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(abortedError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
