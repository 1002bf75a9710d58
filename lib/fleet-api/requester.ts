import "server-only";

import { parseRetryAfterMs } from "@/lib/model/retry-after";

import type { Priority, RequestBudget } from "./budget";
import type { CallOptions, ReportUpstreamCall, UpstreamCall } from "./client-options";
import type { Clock } from "./clock";
import type { FailedCheckAllowance, PairVerdictStore } from "./credential-checks";
import { credentialKey, type Credentials } from "./credentials";
import { FleetApiError, isFleetApiError } from "./errors";
import { abortedError, send, type UpstreamReply } from "./http";
import { type Authorization, KeyPairAuth } from "./key-pair-auth";
import { type KeyState, KeyStates } from "./key-state";
import { type Negotiate, type Resource, scopeName, type Variants, variantsFor } from "./negotiation";
import type { TokenStore } from "./token-store";
import { upstreamError } from "./upstream-errors";

const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
/** A 429 without Retry-After pauses the key for one budget window (what the budget does too). */
const DEFAULT_429_PAUSE_MS = 60_000;

/** One GET operation: the resource it needs a scope for, its path, its query, and how its reply is read. */
export interface GetRequest<T> {
  resource: Resource;
  path: string;
  buildQuery: (variants: Variants) => URLSearchParams;
  reshape: (body: unknown) => T;
  negotiate?: Negotiate | undefined;
}

/** One call of a key: who asks, at which priority, whether it keeps the budget's reserve. */
interface KeyCall {
  credentials: Credentials;
  key: string;
  state: KeyState;
  priority: Priority;
  signal: AbortSignal | undefined;
  keepReserve: boolean;
}

/** One attempt's outcome: the reply, or a network failure or timeout that may be retried. */
type Attempt = { reply: UpstreamReply; auth: Authorization; used: Variants } | { failed: FleetApiError };

/** What a `Requester` runs on, the client's defaults already applied. */
export interface RequesterSettings {
  baseUrl: string;
  clock: Clock;
  budget: RequestBudget;
  timeoutMs: number;
  interactiveMaxWaitMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  random: () => number;
  basicFallbackMs: number;
  failedChecks: FailedCheckAllowance;
  verdicts: PairVerdictStore;
  verdictPepper: Uint8Array;
  onUpstreamCall: ((call: UpstreamCall) => void) | undefined;
  tokens: TokenStore | undefined;
}

/**
 * The one request function under every operation of `FleetApiClient`: the budget, the bearer token (through
 * `KeyPairAuth`), retries with backoff, 429 pauses and the negotiation of request variants.
 */
export class Requester {
  readonly keys: KeyStates;
  readonly auth: KeyPairAuth;

  constructor(private readonly settings: RequesterSettings) {
    this.keys = new KeyStates(settings.clock);
    this.auth = new KeyPairAuth({
      ...settings,
      backoffDelay: (failures) => this.backoffDelay(failures),
      report: (...call) => {
        this.report(...call);
      },
    });
  }

  /**
   * One GET with everything around it: the key's pause, authorisation, a budget slot, retries, a new token after a
   * 401, and the negotiation of request variants (`negotiate` is asked, once per call, whether a 400 naming a field
   * is a form it can switch; then the call is repeated with the other form).
   */
  async get<T>(credentials: Credentials, request: GetRequest<T>, options: CallOptions): Promise<T> {
    const key = credentialKey(credentials);
    const call: KeyCall = {
      credentials,
      key,
      state: this.keys.of(key),
      priority: options.priority ?? "interactive",
      signal: options.signal,
      keepReserve: options.keepReserve ?? false,
    };
    const variants = variantsFor(this.settings.baseUrl);
    let failures = 0;
    let hasReauthenticated = false;
    let negotiated: { revert: () => void; error: FleetApiError } | undefined;
    for (;;) {
      if (call.signal?.aborted) throw abortedError(call.signal);
      await this.refuseLongPause(call);
      const attempt = await this.attempt(call, request, variants);
      if ("failed" in attempt) {
        if (++failures >= this.settings.maxAttempts) throw attempt.failed;
        await this.backoff(failures, call.signal);
        continue;
      }
      const { reply, auth, used } = attempt;
      if (reply.status >= 200 && reply.status < 300) return readBody(reply, request.reshape);
      const error = upstreamError(reply, credentials, this.settings.clock.now());
      if (error.code === "address_refused" && auth.kind === "bearer") {
        // Not the token's fault, nor the key's: a new token would be refused too. Remembered, so the next call of
        // this pair is answered here instead of spending a POST /auth on the same refusal.
        await this.auth.forget(key, call.state, auth.token);
        await this.auth.rememberAddressRefused(credentials, error.message);
        throw error;
      }
      if (reply.status === 401 && auth.kind === "bearer" && !hasReauthenticated) {
        // The token expired or was revoked early: drop it, get a new one, try once more.
        hasReauthenticated = true;
        await this.auth.forget(key, call.state, auth.token);
        continue;
      }
      if (reply.status === 400 && negotiated === undefined) {
        const revert = request.negotiate?.(error.field, used, variants);
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
      if (reply.status === 403 && error.code === "scope_denied")
        throw this.scopeError(error, request.resource, variants);
      if (reply.status === 429) {
        const giveUp = await this.pauseFor429(call, reply, error, ++failures);
        if (giveUp) throw giveUp;
        continue; // the budget holds every request of this key until the pause ends
      }
      if (RETRYABLE_STATUSES.has(reply.status) && ++failures < this.settings.maxAttempts) {
        await this.backoff(failures, call.signal);
        continue;
      }
      throw error;
    }
  }

  /**
   * While the key waits out a long 429 pause, a person gets the wait at once instead of a spinner. The pause is the
   * budget store's: with Redis, one another instance met counts here too.
   */
  private async refuseLongPause(call: KeyCall): Promise<void> {
    if (call.priority !== "interactive") return;
    const pausedMs = await this.settings.budget.pausedFor(call.key);
    if (pausedMs > this.settings.interactiveMaxWaitMs) {
      throw new FleetApiError({
        status: 429,
        code: "rate_limited",
        message: "The Fleet Fuel API asked us to wait before the next request.",
        retryAfterSeconds: Math.ceil(pausedMs / 1000),
      });
    }
  }

  /** One request: authorisation, a budget slot, the GET itself. A network failure or timeout comes back to retry. */
  private async attempt<T>(call: KeyCall, request: GetRequest<T>, variants: Variants): Promise<Attempt> {
    const { credentials, key, state, priority, signal, keepReserve } = call;
    const auth = await this.auth.authorization(credentials, key, state, priority, signal, keepReserve);
    // A Basic request is a key-pair check like POST /auth: the same verdicts and failed-check allowance apply.
    const check = auth.kind === "basic" ? await this.auth.beginCheck(credentials) : undefined;
    try {
      await this.acquire(key, priority, signal, keepReserve);
    } catch (error) {
      await check?.end(undefined);
      throw error;
    }
    const used = { ...variants };
    const query = request.buildQuery(used).toString();
    const started = this.settings.clock.now();
    let reply: UpstreamReply;
    try {
      reply = await send(
        `${this.settings.baseUrl}${request.path}${query ? `?${query}` : ""}`,
        { method: "GET", headers: { Accept: "application/json", Authorization: auth.header } },
        { timeoutMs: this.settings.timeoutMs, signal },
      );
    } catch (error) {
      await check?.end(undefined);
      this.report("GET", request.path, 0, started, priority, auth.kind);
      if (!isFleetApiError(error) || (error.code !== "network_error" && error.code !== "timeout")) throw error;
      return { failed: error };
    }
    this.report("GET", request.path, reply.status, started, priority, auth.kind);
    await check?.end(reply);
    return { reply, auth, used };
  }

  /**
   * A 429: pause the key (every request of it waits) and learn a lower budget if we thought we had some left. Returns
   * the error to give up with (the attempts are spent, or a person would wait too long), or undefined to try again.
   */
  private async pauseFor429(
    call: KeyCall,
    reply: UpstreamReply,
    error: FleetApiError,
    failures: number,
  ): Promise<FleetApiError | undefined> {
    const retryAfterMs = parseRetryAfterMs(reply.retryAfter, this.settings.clock.now());
    await this.settings.budget.noteRateLimited(call.key, retryAfterMs);
    const waitMs = retryAfterMs ?? DEFAULT_429_PAUSE_MS;
    // A person should not wait long behind a spinner: interactive calls report the wait instead.
    if (
      failures < this.settings.maxAttempts &&
      !(call.priority === "interactive" && waitMs > this.settings.interactiveMaxWaitMs)
    )
      return undefined;
    return new FleetApiError({
      status: 429,
      code: "rate_limited",
      message: error.message,
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
    });
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
      await this.settings.budget.acquire(key, priority, signal, keepReserve);
    } catch (error) {
      if (signal?.aborted) throw abortedError(signal);
      throw error;
    }
  }

  private async backoff(failures: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.settings.clock.sleep(this.backoffDelay(failures), signal);
    } catch (error) {
      if (signal?.aborted) throw abortedError(signal);
      throw error;
    }
  }

  /** Exponential backoff with jitter: base·2^(n−1), capped, scaled by a random factor in [0.5, 1). */
  private backoffDelay(failures: number): number {
    const exponential = Math.min(this.settings.backoffMaxMs, this.settings.backoffBaseMs * 2 ** (failures - 1));
    return Math.round(exponential * (0.5 + this.settings.random() / 2));
  }

  private readonly report: ReportUpstreamCall = (method, path, status, started, priority, auth) => {
    this.settings.onUpstreamCall?.({
      method,
      path,
      status,
      durationMs: this.settings.clock.now() - started,
      priority,
      auth,
    });
  };
}

/** A 2xx reply's body in the model's shape; a body that is not JSON is an invalid_response. */
function readBody<T>(reply: UpstreamReply, reshape: (body: unknown) => T): T {
  if (reply.malformed)
    throw new FleetApiError({
      status: reply.status,
      code: "invalid_response",
      message: "The Fleet Fuel API sent a reply that is not valid JSON.",
    });
  return reshape(reply.body);
}
