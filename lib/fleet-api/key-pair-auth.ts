import "server-only";

import { parseRetryAfterMs } from "@/lib/model/retry-after";

import type { Priority, RequestBudget } from "./budget";
import type { ReportUpstreamCall } from "./client-options";
import type { Clock } from "./clock";
import {
  type CheckTicket,
  type FailedCheckAllowance,
  pairIdentity,
  type PairVerdict,
  type PairVerdictStore,
} from "./credential-checks";
import type { Credentials } from "./credentials";
import { FleetApiError, isFleetApiError } from "./errors";
import { raceAbort, send, type UpstreamReply } from "./http";
import type { KeyState, TokenEntry } from "./key-state";
import { variantsFor } from "./negotiation";
import { reshapeAuth } from "./reshape";
import { sharedToken, type TokenStore } from "./token-store";
import { isAuthUnavailable, judgeCheck, upstreamError } from "./upstream-errors";

/**
 * How long a verdict on a pair holds. A pair the provider accepted is recognised for 30 days (kept on disk or in Redis
 * by the BFF, so also after a restart): other people's failed sign-ins with its key id never throttle its owner. It
 * only spares the throttles: the pair is still checked by the provider whenever it needs a token.
 */
const VERIFIED_FOR_MS = 30 * 24 * 3_600_000;
const REFUSED_FOR_MS = 15 * 60_000;
/** Short: an administrator may add this server to the key's allow-list any minute. */
const ADDRESS_REFUSED_FOR_MS = 2 * 60_000;

/** Before a key-pair check: its verdict was consulted and, for a pair not known good, a place in the allowance taken. */
export interface PairCheck {
  /** The provider's answer (undefined: none came). Records the verdict and settles the place. */
  end(reply: UpstreamReply | undefined): Promise<void>;
}

/** What the key-pair side of the client shares with the client itself. */
export interface KeyPairAuthDeps {
  baseUrl: string;
  clock: Clock;
  budget: RequestBudget;
  timeoutMs: number;
  interactiveMaxWaitMs: number;
  maxAttempts: number;
  basicFallbackMs: number;
  failedChecks: FailedCheckAllowance;
  verdicts: PairVerdictStore;
  verdictPepper: Uint8Array;
  backoffDelay: (failures: number) => number;
  report: ReportUpstreamCall;
  /** The token shared by several instances (Redis); unset, the key's state in this process is the only holder. */
  tokens: TokenStore | undefined;
}

/** How a request is authorised: a bearer token, or the key pair itself (HTTP Basic). */
export interface Authorization {
  kind: "bearer" | "basic";
  header: string;
  token?: string;
}

/**
 * The key pair's side of the client: bearer tokens (one POST /auth per token lifetime), the HTTP Basic fallback, and
 * the checks of a pair against the provider, with their verdicts and the failed-check allowance (credential-checks.ts).
 */
export class KeyPairAuth {
  constructor(private readonly deps: KeyPairAuthDeps) {}

  /** Whether the provider accepted this pair within the last 30 days (a verdict in the store: memory, file or Redis). */
  async isVerified(credentials: Credentials): Promise<boolean> {
    let verdict: PairVerdict | undefined;
    try {
      verdict = await this.deps.verdicts.get(this.pairId(credentials), this.deps.clock.now());
    } catch (error) {
      // Shared verdicts unreadable (Redis down): not known good, so the caller's throttles apply (they fail closed,
      // and so does the check itself, in beginCheck).
      if (isFleetApiError(error) && error.code === "shared_state_unavailable") return false;
      throw error;
    }
    return verdict?.kind === "verified";
  }

  /** The upstream refused a bearer request of this pair for the caller's address: answer the next ones from that. */
  async rememberAddressRefused(credentials: Credentials, message: string): Promise<void> {
    await this.deps.verdicts.set(
      this.pairId(credentials),
      { kind: "address_refused", message },
      this.deps.clock.now() + ADDRESS_REFUSED_FOR_MS,
    );
  }

  /** Bearer when we can get a token; HTTP Basic for a while when POST /auth itself is unavailable. */
  async authorization(
    credentials: Credentials,
    key: string,
    state: KeyState,
    priority: Priority,
    signal: AbortSignal | undefined,
    keepReserve = false,
  ): Promise<Authorization> {
    const basic = {
      kind: "basic" as const,
      header: `Basic ${Buffer.from(`${credentials.keyId}:${credentials.secret}`).toString("base64")}`,
    };
    if (state.basicUntilMs > this.deps.clock.now()) return basic;
    try {
      const entry = await this.token(credentials, key, state, priority, signal, keepReserve);
      return { kind: "bearer", header: `Bearer ${entry.token}`, token: entry.token };
    } catch (error) {
      if (isFleetApiError(error) && isAuthUnavailable(error)) {
        state.basicUntilMs = this.deps.clock.now() + this.deps.basicFallbackMs;
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
  token(
    credentials: Credentials,
    key: string,
    state: KeyState,
    priority: Priority,
    signal: AbortSignal | undefined,
    keepReserve = false,
  ): Promise<TokenEntry> {
    const now = this.deps.clock.now();
    if (state.token && now < state.token.usableUntilMs) return Promise.resolve(state.token);
    if (!state.inflight) {
      const waitMs = state.token ? Math.max(0, state.token.expiredAtMs - now) : 0;
      const renew = async (): Promise<TokenEntry> => {
        const post = () => this.postAuth(credentials, key, state, priority, keepReserve);
        if (this.deps.tokens) return sharedToken(this.deps.tokens, key, state, this.deps.clock, this.renewalMs(), post);
        if (waitMs > 0) await this.deps.clock.sleep(waitMs);
        return post();
      };
      const inflight = renew().finally(() => {
        if (state.inflight === inflight) state.inflight = undefined;
      });
      inflight.catch(() => undefined); // waiters handle the failure; an abandoned flight must not be "unhandled"
      state.inflight = inflight;
    }
    return raceAbort(state.inflight, signal);
  }

  /** The upstream refused `token` (401): nobody, here or on another instance, uses it again. */
  async forget(key: string, state: KeyState, token: string | undefined): Promise<void> {
    if (token === undefined) return;
    if (state.token?.token === token) state.token = undefined;
    await this.deps.tokens?.drop(key, token);
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
        await this.deps.budget.acquire(key, priority, undefined, keepReserve);
      } catch (error) {
        await check.end(undefined);
        throw error;
      }
      const started = this.deps.clock.now();
      let reply: UpstreamReply;
      try {
        reply = await send(
          `${this.deps.baseUrl}/auth`,
          {
            method: "POST",
            headers: { Accept: "application/json", "Content-Type": "application/json" },
            body: JSON.stringify({ key_id: credentials.keyId, secret: credentials.secret }),
          },
          { timeoutMs: this.deps.timeoutMs },
        );
      } catch (error) {
        await check.end(undefined);
        this.deps.report("POST", "/auth", 0, started, priority, "none");
        throw error;
      }
      this.deps.report("POST", "/auth", reply.status, started, priority, "none");
      await check.end(reply);
      if (reply.status >= 200 && reply.status < 300) {
        if (reply.malformed)
          throw new FleetApiError({
            status: reply.status,
            code: "invalid_response",
            message: "The Fleet Fuel API sent a token reply that is not valid JSON.",
          });
        const grant = reshapeAuth(reply.body);
        const received = this.deps.clock.now();
        const entry = {
          token: grant.accessToken,
          usableUntilMs: started + Math.max(0, grant.expiresInSeconds - 1) * 1000,
          expiredAtMs: received + grant.expiresInSeconds * 1000,
        };
        state.token = entry;
        state.scopes = grant.scopes;
        if (grant.scopes !== null) variantsFor(this.deps.baseUrl).scopeNaming = "granular";
        return entry;
      }
      const asked = parseRetryAfterMs(reply.retryAfter, this.deps.clock.now());
      const waitable = (asked ?? 0) <= this.deps.interactiveMaxWaitMs;
      if (reply.status === 429 && ++failures < this.deps.maxAttempts && waitable) {
        // A 429 to POST /auth is most likely the provider's failed-check allowance of this server's address (every
        // user's guesses together), not this key's budget: it teaches nothing about the key, whose budget stays.
        await this.deps.clock.sleep(asked ?? this.deps.backoffDelay(failures));
        continue;
      }
      throw upstreamError(reply, credentials, this.deps.clock.now());
    }
  }

  /** How long one renewal may take (its attempts and their waits): the renewal lock's lifetime across instances. */
  private renewalMs(): number {
    return this.deps.maxAttempts * (this.deps.timeoutMs + this.deps.interactiveMaxWaitMs);
  }

  private pairId(credentials: Credentials): string {
    return pairIdentity(credentials, this.deps.verdictPepper);
  }

  /**
   * Before a key-pair check (POST /auth, a Basic request): a pair the provider refused lately is refused here with
   * the same answer, without asking again; a pair not known good takes a place in the failed-check allowance first,
   * or is refused here when there is none (`too_many_failed_checks`).
   */
  async beginCheck(credentials: Credentials): Promise<PairCheck> {
    const pairId = this.pairId(credentials);
    const verdict = await this.deps.verdicts.get(pairId, this.deps.clock.now());
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
      const place = await this.deps.failedChecks.tryBegin();
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
        const outcome = reply === undefined ? undefined : judgeCheck(reply, credentials, this.deps.clock.now());
        const isFailure = outcome !== undefined && outcome.kind !== "verified";
        // The provider has answered: the caller gets that answer even if the shared state (Redis) stopped answering
        // meanwhile. Nothing is lost to the allowance then: an unsettled place stays taken until its lease ends (at
        // least a window), and the next check is refused while Redis is down.
        await ignoreSharedStateDown(async () => {
          if (ticket) await ticket.settle(outcome === undefined ? "unchecked" : isFailure ? "failed" : "passed");
          else if (isFailure) await this.deps.failedChecks.recordFailure();
          if (outcome === undefined) return;
          const forMs =
            outcome.kind === "verified"
              ? VERIFIED_FOR_MS
              : outcome.kind === "refused"
                ? REFUSED_FOR_MS
                : ADDRESS_REFUSED_FOR_MS;
          await this.deps.verdicts.set(pairId, outcome, this.deps.clock.now() + forMs);
        });
      },
    };
  }
}

async function ignoreSharedStateDown(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!isFleetApiError(error) || error.code !== "shared_state_unavailable") throw error;
  }
}
