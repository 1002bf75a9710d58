import "server-only";
import { isIP } from "node:net";
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
import { parseRetryAfter, RequestBudget, type Priority } from "./budget";
import { systemClock, type Clock } from "./clock";
import {
  FailedCheckLimiter,
  MemoryPairVerdictStore,
  pairIdentity,
  randomPepper,
  type CheckTicket,
  type PairVerdict,
  type PairVerdictStore,
} from "./credential-checks";
import { credentialKey, type Credentials } from "./credentials";
import { FleetApiError, isFleetApiError } from "./errors";
import { abortedError, replyError, send, type UpstreamReply } from "./http";
import { dateBound, scopeName, variantsFor, type Resource, type Variants } from "./negotiation";
import { RecentIds } from "./recent-ids";
import {
  reshapeAccount,
  reshapeAuth,
  reshapeStationDetail,
  reshapeStationPage,
  reshapeTransactionDetail,
  reshapeTransactionPage,
} from "./reshape";

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
  /**
   * Failed key-pair checks this process may cause (sign-ins, re-authentications, Basic requests), shared by every
   * key: the provider's allowance is per address, and every user reaches it from this server's one address.
   */
  failedChecks?: FailedCheckLimiter;
  /** What the provider last said about each key pair (verified, refused, refused from this address). */
  verdicts?: PairVerdictStore;
  /** Key of the HMAC naming a pair in `verdicts`; random per process by default (give one to share a store). */
  verdictPepper?: Uint8Array;
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

interface TokenEntry {
  token: string;
  /** The provider's expiry is no earlier than this: `expires_in` whole seconds, less one, from when we asked. */
  usableUntilMs: number;
  /** ...and no later than this: `expires_in` seconds from when the answer came. */
  expiredAtMs: number;
}

/** How long a verdict on a pair holds. */
const VERIFIED_FOR_MS = 12 * 3_600_000;
const REFUSED_FOR_MS = 15 * 60_000;
/** Short: an administrator may add this server to the key's allow-list any minute. */
const ADDRESS_REFUSED_FOR_MS = 2 * 60_000;
/** A 401 that blames the caller's address rather than the key (the alternative description's allow-list rule). */
const ADDRESS_REFUSAL = /allow-?list|(?:your|this|caller'?s?|client'?s?) (?:ip )?address/i;

/** Before a key-pair check: its verdict was consulted and, for a pair not known good, a place in the allowance taken. */
interface PairCheck {
  /** The provider's answer (undefined: none came). Records the verdict and settles the place. */
  end(reply: UpstreamReply | undefined): Promise<void>;
}

interface KeyState {
  token: TokenEntry | undefined;
  inflight: Promise<TokenEntry> | undefined;
  basicUntilMs: number;
  scopes: string[] | null;
  /** Until when the upstream asked this key to wait (a 429's Retry-After). */
  pausedUntilMs: number;
}

export const TRANSACTIONS_PAGE_MAX = 200;
export const LOCATIONS_PAGE_MAX = 500;
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const MAX_ID_LENGTH = 200;
/** A 429 without Retry-After pauses the key for one budget window (what the budget does too). */
const DEFAULT_RATE_LIMIT_PAUSE_MS = 60_000;
/** A Retry-After beyond this is not believed: the key pauses this long at most. */
const MAX_RATE_LIMIT_PAUSE_MS = 10 * 60_000;
/** Interactive calls wait at most this long for a 429 to pass; beyond it they fail with rate_limited and the wait. */
const INTERACTIVE_MAX_WAIT_MS = 30_000;
/** Key states are swept of dead entries when the map reaches this size. */
const KEY_STATE_SWEEP_AT = 1_000;

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
  private readonly basicFallbackMs: number;
  private readonly failedChecks: FailedCheckLimiter;
  private readonly verdicts: PairVerdictStore;
  private readonly verdictPepper: Uint8Array;
  private readonly onUpstreamCall: ((call: UpstreamCall) => void) | undefined;
  private readonly keys = new Map<string, KeyState>();

  constructor(options: FleetApiClientOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl, options.allowInsecureHttp ?? false);
    this.clock = options.clock ?? systemClock;
    this.budget = options.budget ?? new RequestBudget({ clock: this.clock });
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 10_000;
    this.random = options.random ?? Math.random;
    this.basicFallbackMs = options.basicFallbackMs ?? 60_000;
    this.failedChecks = options.failedChecks ?? new FailedCheckLimiter({ clock: this.clock });
    this.verdicts = options.verdicts ?? new MemoryPairVerdictStore();
    this.verdictPepper = options.verdictPepper ?? randomPepper();
    this.onUpstreamCall = options.onUpstreamCall;
  }

  /** Checks a key pair (POST /auth, or the cached token it already earned). Returns the scopes the upstream names, if it does. */
  async authenticate(credentials: Credentials, options: CallOptions = {}): Promise<{ scopes: string[] | null }> {
    const key = credentialKey(credentials);
    const state = this.state(key);
    try {
      await this.token(credentials, key, state, options.priority ?? "interactive", options.signal);
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
   * hours. Costs no request. Throttles of failed sign-ins let such a pair through, so nobody can lock its owner out
   * by failing on purpose; its check (if one is needed) takes no place in the failed-check allowance either.
   */
  async recognises(credentials: Credentials): Promise<boolean> {
    const token = this.keys.get(credentialKey(credentials))?.token;
    if (token !== undefined && this.clock.now() < token.usableUntilMs) return true;
    return (await this.verdicts.get(this.pairId(credentials), this.clock.now()))?.kind === "verified";
  }

  /**
   * How much of this key's request budget the current window holds: the budget (as learned from 429s), the requests
   * recorded in the window, and how long an upstream 429 still pauses the key. For callers that must leave part of the
   * budget to others (the price checks of the stations page); reading it costs no request.
   */
  async budgetUse(credentials: Credentials): Promise<BudgetUse> {
    const key = credentialKey(credentials);
    const sent = await this.budget.sentInWindow(key);
    const pausedForMs = Math.max(0, (this.keys.get(key)?.pausedUntilMs ?? 0) - this.clock.now());
    return { budget: this.budget.budgetOf(key), sent, pausedForMs, waiting: this.budget.pending(key) };
  }

  /**
   * How this upstream takes transaction `from`/`to`, as far as it has told us: `datetime` filters instants exactly,
   * `date` by the UTC days that cover them. Read after a dated `listTransactions`, it is the form that call used.
   */
  transactionDateStyle(): Variants["dateStyle"] {
    return variantsFor(this.baseUrl).dateStyle;
  }

  getAccount(credentials: Credentials, options: CallOptions = {}): Promise<Account> {
    return this.get(credentials, "account", "/account-details", () => new URLSearchParams(), reshapeAccount, options);
  }

  async listTransactions(
    credentials: Credentials,
    query: TransactionFilter & { page?: number; limit?: number },
    options: CallOptions = {},
  ): Promise<Page<Transaction>> {
    const hasDates = query.from !== undefined || query.to !== undefined;
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
      // Checked here so the upstream's 400 for it is never mistaken for a date-form mismatch.
      throw new FleetApiError({
        status: 400,
        code: "bad_request",
        message: `The start date (${query.from}) is after the end date (${query.to}).`,
        field: "from",
      });
    }
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
      (field, used, shared) => {
        if (!hasDates || (field !== "from" && field !== "to")) return undefined;
        shared.dateStyle = used.dateStyle === "date" ? "datetime" : "date";
        return () => {
          shared.dateStyle = used.dateStyle;
        };
      },
    );
  }

  async getTransaction(credentials: Credentials, id: string, options: CallOptions = {}): Promise<TransactionDetail> {
    return this.get(
      credentials,
      "transactions",
      `/transactions/${pathId(id)}`,
      () => new URLSearchParams(),
      reshapeTransactionDetail,
      options,
    );
  }

  async listLocations(
    credentials: Credentials,
    query: StationFilter & { page?: number; limit?: number },
    options: CallOptions = {},
  ): Promise<Page<Station>> {
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
      (field, used, shared) => {
        if (query.search === undefined || field !== used.locationSearch) return undefined;
        shared.locationSearch = used.locationSearch === "search" ? "q" : "search";
        return () => {
          shared.locationSearch = used.locationSearch;
        };
      },
    );
  }

  async getLocation(credentials: Credentials, id: string, options: CallOptions = {}): Promise<StationDetail> {
    return this.get(
      credentials,
      "locations",
      `/locations/${pathId(id)}`,
      () => new URLSearchParams(),
      reshapeStationDetail,
      options,
    );
  }

  /** The whole station catalog matching the filter, at bulk priority by default, deduplicated by id. */
  async listAllLocations(
    credentials: Credentials,
    filter: StationFilter = {},
    options: WalkOptions = {},
  ): Promise<Station[]> {
    const out: Station[] = [];
    const pageSize = options.pageSize ?? LOCATIONS_PAGE_MAX;
    await this.walk(
      (page) =>
        this.listLocations(
          credentials,
          { ...filter, page, limit: pageSize },
          { ...options, priority: options.priority ?? "bulk" },
        ),
      options,
      (item: Station) => {
        out.push(item);
      },
    );
    return out;
  }

  /**
   * Every transaction matching the filter, newest first, walking the pages at bulk priority by default. New
   * transactions arriving during a long walk shift later pages; items are deduplicated by id so none is
   * delivered twice, and the walk goes on until the reply's last page so none is lost.
   *
   * The pages are offsets into a list that moves: an item delivered earlier comes back on a later page only when
   * items were inserted ahead of it after it was delivered, and then among the last ones delivered. So the walk
   * remembers only the latest ids, two pages' worth plus as many as the upstream's `total` grew by since the walk
   * began (the insertions it shows), not every id delivered: memory follows the page size and what arrives during
   * the walk, never the number of rows. (Insertions hidden from `total` by as many deletions could still let a
   * repeat through beyond that window; a repeat, never a loss.)
   */
  async *iterateTransactions(
    credentials: Credentials,
    filter: TransactionFilter = {},
    options: TransactionWalkOptions = {},
  ): AsyncGenerator<Transaction> {
    const pageSize = options.pageSize ?? TRANSACTIONS_PAGE_MAX;
    const recent = new RecentIds(2 * pageSize);
    let firstTotal: number | undefined;
    let delivered = 0;
    let pagesDone = 0;
    for (let page = 1; ; page++) {
      const result =
        page === 1 && options.firstPage !== undefined
          ? options.firstPage
          : await this.listTransactions(
              credentials,
              { ...filter, page, limit: pageSize },
              { ...options, priority: options.priority ?? "bulk" },
            );
      firstTotal ??= result.total;
      recent.growTo(2 * Math.max(pageSize, result.items.length) + Math.max(0, result.total - firstTotal));
      for (const item of result.items) {
        if (recent.has(item.id)) continue;
        recent.add(item.id);
        delivered++;
        yield item;
      }
      pagesDone++;
      options.onProgress?.({ pagesDone, pages: result.pages, total: result.total, delivered, remembered: recent.size });
      // The reply's `pages` decides (it grows when new transactions arrive); a short page does not, in case the
      // upstream caps `limit` below what we asked.
      if (result.items.length === 0 || page >= result.pages) return;
    }
  }

  private async walk<T extends { id: string }>(
    fetchPage: (page: number) => Promise<Page<T>>,
    options: WalkOptions,
    deliver: (item: T) => void,
  ): Promise<void> {
    const seen = new Set<string>();
    for (let page = 1; ; page++) {
      const result = await fetchPage(page);
      for (const item of result.items) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        deliver(item);
      }
      options.onProgress?.({
        pagesDone: page,
        pages: result.pages,
        total: result.total,
        delivered: seen.size,
        remembered: seen.size,
      });
      if (result.items.length === 0 || page >= result.pages) return;
    }
  }

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      if (this.keys.size >= KEY_STATE_SWEEP_AT) this.sweepKeys();
      state = { token: undefined, inflight: undefined, basicUntilMs: 0, scopes: null, pausedUntilMs: 0 };
      this.keys.set(key, state);
    }
    return state;
  }

  /** Forgets keys with nothing worth keeping (no live token, no flight, no Basic period), so the map stays bounded. */
  private sweepKeys(): void {
    const now = this.clock.now();
    for (const [key, state] of this.keys) {
      if (
        state.inflight === undefined &&
        (state.token === undefined || state.token.expiredAtMs <= now) &&
        state.basicUntilMs <= now
      )
        this.keys.delete(key);
    }
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
    negotiate?: (field: string | undefined, used: Variants, shared: Variants) => (() => void) | undefined,
  ): Promise<T> {
    const key = credentialKey(credentials);
    const state = this.state(key);
    const variants = variantsFor(this.baseUrl);
    const priority = options.priority ?? "interactive";
    const signal = options.signal;
    let failures = 0;
    let hasReauthenticated = false;
    let negotiated: { revert: () => void; error: FleetApiError } | undefined;
    for (;;) {
      if (signal?.aborted) throw abortedError(signal);
      // While the key waits out a long 429 pause, a person gets the wait at once instead of a spinner.
      const pausedMs = state.pausedUntilMs - this.clock.now();
      if (priority === "interactive" && pausedMs > INTERACTIVE_MAX_WAIT_MS) {
        throw new FleetApiError({
          status: 429,
          code: "rate_limited",
          message: "The Fleet Fuel API asked us to wait before the next request.",
          retryAfterSeconds: Math.ceil(pausedMs / 1000),
        });
      }
      const auth = await this.authorization(credentials, key, state, priority, signal, options.keepReserve ?? false);
      // A Basic request is a key-pair check like POST /auth: the same verdicts and allowance apply.
      const check = auth.kind === "basic" ? await this.beginCheck(credentials) : undefined;
      try {
        await this.acquire(key, priority, signal, options.keepReserve ?? false);
      } catch (error) {
        await check?.end(undefined);
        throw error;
      }
      const used = { ...variants };
      const query = buildQuery(used).toString();
      const started = this.clock.now();
      let reply: UpstreamReply;
      try {
        reply = await send(
          `${this.baseUrl}${path}${query ? `?${query}` : ""}`,
          { method: "GET", headers: { Accept: "application/json", Authorization: auth.header } },
          { timeoutMs: this.timeoutMs, signal },
        );
      } catch (error) {
        await check?.end(undefined);
        this.report("GET", path, 0, started, priority, auth.kind);
        const isRetryable = isFleetApiError(error) && (error.code === "network_error" || error.code === "timeout");
        if (!isRetryable || ++failures >= this.maxAttempts) throw error;
        await this.backoff(failures, signal);
        continue;
      }
      this.report("GET", path, reply.status, started, priority, auth.kind);
      await check?.end(reply);

      if (reply.status >= 200 && reply.status < 300) {
        if (reply.malformed)
          throw new FleetApiError({
            status: reply.status,
            code: "invalid_response",
            message: "The Fleet Fuel API sent a reply that is not valid JSON.",
          });
        return reshape(reply.body);
      }
      const error = upstreamError(reply, credentials);
      if (error.code === "address_refused" && auth.kind === "bearer") {
        // Not the token's fault, nor the key's: a new token would be refused too. Remembered, so the next call of
        // this pair is answered here instead of spending a POST /auth on the same refusal.
        if (state.token?.token === auth.token) state.token = undefined;
        await this.verdicts.set(
          this.pairId(credentials),
          { kind: "address_refused", message: error.message },
          this.clock.now() + ADDRESS_REFUSED_FOR_MS,
        );
        throw error;
      }
      if (reply.status === 401 && auth.kind === "bearer" && !hasReauthenticated) {
        // The token expired or was revoked early: drop it, get a new one, try once more.
        hasReauthenticated = true;
        if (state.token?.token === auth.token) state.token = undefined;
        continue;
      }
      if (reply.status === 400 && negotiated === undefined) {
        const revert = negotiate?.(error.field, used, variants);
        if (revert) {
          negotiated = { revert, error };
          continue;
        }
      } else if (reply.status === 400 && negotiated !== undefined && error.field === negotiated.error.field) {
        // The other form is refused for the same parameter too: the value was wrong, not its form. Keep the form
        // we had and report the first answer.
        negotiated.revert();
        throw negotiated.error;
      }
      if (reply.status === 403 && error.code === "scope_denied") throw this.scopeError(error, resource, variants);
      if (reply.status === 429) {
        // Pause the key (every request of it waits) and learn a lower budget if we thought we had some left.
        const asked = parseRetryAfter(reply.retryAfter, this.clock.now());
        const retryAfterMs = asked === undefined ? undefined : Math.min(asked, MAX_RATE_LIMIT_PAUSE_MS);
        await this.budget.noteRateLimited(key, retryAfterMs);
        const waitMs = retryAfterMs ?? DEFAULT_RATE_LIMIT_PAUSE_MS;
        state.pausedUntilMs = Math.max(state.pausedUntilMs, this.clock.now() + waitMs);
        // A person should not wait long behind a spinner: interactive calls report the wait instead.
        if (++failures >= this.maxAttempts || (priority === "interactive" && waitMs > INTERACTIVE_MAX_WAIT_MS)) {
          throw new FleetApiError({
            status: 429,
            code: "rate_limited",
            message: error.message,
            retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
          });
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

  private async acquire(
    key: string,
    priority: Priority,
    signal: AbortSignal | undefined,
    keepReserve: boolean,
  ): Promise<void> {
    try {
      await this.budget.acquire(key, priority, signal, keepReserve);
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

  private report(
    method: "GET" | "POST",
    path: string,
    status: number,
    started: number,
    priority: Priority,
    auth: UpstreamCall["auth"],
  ): void {
    this.onUpstreamCall?.({ method, path, status, durationMs: this.clock.now() - started, priority, auth });
  }

  /** Bearer when we can get a token; HTTP Basic for a while when POST /auth itself is unavailable. */
  private async authorization(
    credentials: Credentials,
    key: string,
    state: KeyState,
    priority: Priority,
    signal: AbortSignal | undefined,
    keepReserve = false,
  ): Promise<{ kind: "bearer" | "basic"; header: string; token?: string }> {
    const basic = {
      kind: "basic" as const,
      header: `Basic ${Buffer.from(`${credentials.keyId}:${credentials.secret}`).toString("base64")}`,
    };
    if (state.basicUntilMs > this.clock.now()) return basic;
    try {
      const entry = await this.token(credentials, key, state, priority, signal, keepReserve);
      return { kind: "bearer", header: `Bearer ${entry.token}`, token: entry.token };
    } catch (error) {
      if (isFleetApiError(error) && isAuthUnavailable(error)) {
        state.basicUntilMs = this.clock.now() + this.basicFallbackMs;
        return basic;
      }
      throw error;
    }
  }

  /**
   * The key's bearer token, used until it expires; concurrent callers share one POST /auth. Never renewed early: the
   * provider caches its answer for `expires_in` (the spec says so), so asking in the token's last minute only gets
   * the same token back with the seconds it has left, and costs a POST /auth and a budget slot each time. In the
   * last second or so, where our reckoning cannot tell whether the provider still holds it, callers wait for that
   * moment to pass, then one POST /auth gets the next token: one POST /auth per token lifetime. That POST /auth takes
   * its budget slot with the priority and reserve rule of the caller that started it (background work keeps the reserve).
   */
  private token(
    credentials: Credentials,
    key: string,
    state: KeyState,
    priority: Priority,
    signal: AbortSignal | undefined,
    keepReserve = false,
  ): Promise<TokenEntry> {
    const now = this.clock.now();
    if (state.token && now < state.token.usableUntilMs) return Promise.resolve(state.token);
    if (!state.inflight) {
      const waitMs = state.token ? Math.max(0, state.token.expiredAtMs - now) : 0;
      const renew = async (): Promise<TokenEntry> => {
        if (waitMs > 0) await this.clock.sleep(waitMs);
        return this.postAuth(credentials, key, state, priority, keepReserve);
      };
      const inflight = renew().finally(() => {
        if (state.inflight === inflight) state.inflight = undefined;
      });
      inflight.catch(() => undefined); // waiters handle the failure; an abandoned flight must not be "unhandled"
      state.inflight = inflight;
    }
    return raceAbort(state.inflight, signal);
  }

  private async postAuth(
    credentials: Credentials,
    key: string,
    state: KeyState,
    priority: Priority,
    keepReserve: boolean,
  ): Promise<TokenEntry> {
    let failures = 0;
    for (;;) {
      const check = await this.beginCheck(credentials);
      // Shared by every waiter, so no single caller's signal may cancel it; the timeout bounds it.
      try {
        await this.budget.acquire(key, priority, undefined, keepReserve);
      } catch (error) {
        await check.end(undefined);
        throw error;
      }
      const started = this.clock.now();
      let reply: UpstreamReply;
      try {
        reply = await send(
          `${this.baseUrl}/auth`,
          {
            method: "POST",
            headers: { Accept: "application/json", "Content-Type": "application/json" },
            body: JSON.stringify({ key_id: credentials.keyId, secret: credentials.secret }),
          },
          { timeoutMs: this.timeoutMs },
        );
      } catch (error) {
        await check.end(undefined);
        this.report("POST", "/auth", 0, started, priority, "none");
        throw error;
      }
      this.report("POST", "/auth", reply.status, started, priority, "none");
      await check.end(reply);
      if (reply.status >= 200 && reply.status < 300) {
        if (reply.malformed)
          throw new FleetApiError({
            status: reply.status,
            code: "invalid_response",
            message: "The Fleet Fuel API sent a token reply that is not valid JSON.",
          });
        const grant = reshapeAuth(reply.body);
        const received = this.clock.now();
        const entry = {
          token: grant.accessToken,
          usableUntilMs: started + Math.max(0, grant.expiresInSeconds - 1) * 1000,
          expiredAtMs: received + grant.expiresInSeconds * 1000,
        };
        state.token = entry;
        state.scopes = grant.scopes;
        if (grant.scopes !== null) variantsFor(this.baseUrl).scopeNaming = "granular";
        return entry;
      }
      const asked = parseRetryAfter(reply.retryAfter, this.clock.now());
      if (reply.status === 429 && ++failures < this.maxAttempts && (asked ?? 0) <= INTERACTIVE_MAX_WAIT_MS) {
        // A 429 to POST /auth is most likely the provider's failed-check allowance of this server's address (every
        // user's guesses together), not this key's budget: it teaches nothing about the key, whose budget stays.
        await this.clock.sleep(asked ?? this.backoffDelay(failures));
        continue;
      }
      throw upstreamError(reply, credentials);
    }
  }

  private pairId(credentials: Credentials): string {
    return pairIdentity(credentials, this.verdictPepper);
  }

  /**
   * Before a key-pair check (POST /auth, a Basic request): a pair the provider refused lately is refused here with
   * the same answer, without asking again; a pair not known good takes a place in the failed-check allowance first,
   * or is refused here when there is none (`too_many_failed_checks`).
   */
  private async beginCheck(credentials: Credentials): Promise<PairCheck> {
    const pairId = this.pairId(credentials);
    const verdict = await this.verdicts.get(pairId, this.clock.now());
    if (verdict?.kind === "refused")
      throw new FleetApiError({
        status: verdict.code === "bad_request" ? 400 : 401,
        code: verdict.code,
        message: verdict.message,
      });
    if (verdict?.kind === "address_refused")
      throw new FleetApiError({ status: 401, code: "address_refused", message: verdict.message });
    let ticket: CheckTicket | undefined;
    if (verdict === undefined) {
      const place = this.failedChecks.tryBegin();
      if ("retryAfterMs" in place) {
        const seconds = Math.ceil(place.retryAfterMs / 1000);
        throw new FleetApiError({
          status: 429,
          code: "too_many_failed_checks",
          message: `Too many failed key checks went from this server to the Fleet Fuel API in the last minute; the next one can be tried in ${String(seconds)} s.`,
          retryAfterSeconds: seconds,
        });
      }
      ticket = place.ticket;
    }
    return {
      end: async (reply) => {
        const outcome = reply === undefined ? undefined : judgeCheck(reply, credentials);
        const isFailure = outcome !== undefined && outcome.kind !== "verified";
        if (ticket) ticket.settle(outcome === undefined ? "unchecked" : isFailure ? "failed" : "passed");
        else if (isFailure) this.failedChecks.recordFailure();
        if (outcome === undefined) return;
        const forMs =
          outcome.kind === "verified"
            ? VERIFIED_FOR_MS
            : outcome.kind === "refused"
              ? REFUSED_FOR_MS
              : ADDRESS_REFUSED_FOR_MS;
        await this.verdicts.set(pairId, outcome, this.clock.now() + forMs);
      },
    };
  }
}

/** What a reply to a key-pair check says about the pair; undefined when it says nothing (429, 5xx, 404…). */
function judgeCheck(reply: UpstreamReply, credentials: Credentials): PairVerdict | undefined {
  if (reply.status >= 200 && reply.status < 300) return { kind: "verified" };
  const error = upstreamError(reply, credentials);
  if (error.code === "scope_denied") return { kind: "verified" }; // the pair is valid; it only lacks a scope
  if (error.code === "address_refused") return { kind: "address_refused", message: error.message };
  if (error.code === "unauthenticated" || error.code === "invalid_credentials" || error.code === "bad_request")
    return { kind: "refused", code: error.code, message: error.message };
  return undefined;
}

/** The reply's error, the secret redacted; a 401 that blames the caller's address becomes `address_refused`. */
function upstreamError(reply: UpstreamReply, credentials: Credentials): FleetApiError {
  const error = redact(replyError(reply), credentials);
  if (reply.status !== 401 || !ADDRESS_REFUSAL.test(error.message)) return error;
  return new FleetApiError({ status: 401, code: "address_refused", message: error.message });
}

/** POST /auth could not be used at all (as opposed to: it said the credentials are wrong). */
function isAuthUnavailable(error: FleetApiError): boolean {
  // A verdict on the credentials is never "unavailable", whatever status carries it (invalid_credentials has none fixed).
  if (
    error.code === "invalid_credentials" ||
    error.code === "unauthenticated" ||
    error.code === "bad_request" ||
    error.code === "scope_denied"
  )
    return false;
  return (
    error.code === "network_error" ||
    error.code === "timeout" ||
    [404, 405, 500, 501, 502, 503, 504].includes(error.status)
  );
}

/** An upstream message that echoes the secret (a provider repeating the request) must not carry it further. */
function redact(error: FleetApiError, credentials: Credentials): FleetApiError {
  if (credentials.secret.length === 0 || !error.message.includes(credentials.secret)) return error;
  return new FleetApiError({
    status: error.status,
    code: error.code,
    message: error.message.split(credentials.secret).join("[redacted]"),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    ...(error.field !== undefined ? { field: error.field } : {}),
    ...(error.scope !== undefined ? { scope: error.scope } : {}),
  });
}

/** localhost, or a literal loopback address (127.0.0.0/8, ::1) — not a name that merely starts with "127.". */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return isIP(host) === 6 && (host === "::1" || host === "0:0:0:0:0:0:0:1");
}

/** https, or http to loopback only (the local sandbox); never credentials in the URL. */
function checkBaseUrl(raw: string, allowInsecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("FLEET_API_BASE_URL is not an absolute URL.");
  }
  if (url.username || url.password) throw new Error("FLEET_API_BASE_URL must not contain a user name or password.");
  const isLoopback = isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && (isLoopback || allowInsecureHttp))) {
    throw new Error(
      "FLEET_API_BASE_URL must use https (plain http is allowed only to this machine), or the key pair would travel in clear.",
    );
  }
  if (url.search || url.hash) throw new Error("FLEET_API_BASE_URL must not have a query or fragment.");
  return url.toString().replace(/\/+$/, "");
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
