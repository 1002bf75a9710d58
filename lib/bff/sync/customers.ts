import "server-only";

import { credentialKey, type Credentials } from "@/lib/fleet-api";
import type { SyncProgress } from "@/lib/mirror";

import type { ActiveSession } from "../platform/session";

/**
 * The mirror service's memory of who is signed in, per customer: the key pair a sync may use (in memory only, never
 * written anywhere: it comes from the session's sealed cookie and goes when the customer's sessions go quiet), the
 * sessions to end when the upstream refuses the key, and when each key last proved live.
 */
export interface LiveCustomer {
  id: string;
  /** The pair the sync uses (the last one seen of this customer), and its hash; null once refused or dropped. */
  credentials: Credentials | null;
  keyHash: string | null;
  /** Session id → its key's hash and when its revocation may lapse (its absolute expiry at the latest). */
  sessions: Map<string, { keyHash: string; untilMs: number }>;
  /** Key hash → the last time an upstream call with that key succeeded (sign-in counts). */
  provenLiveMs: Map<string, number>;
  /** The last request of any of its sessions: the customer is dropped after the session idle timeout without one. */
  lastSeenMs: number;
  /** The sync running now, with its abort and progress; null when none. */
  running: { promise: Promise<void>; abort: AbortController; progress: SyncProgress | null } | null;
  /** A head sync asked for while another run was in progress (sync now): it runs when that one ends. */
  headAgain: boolean;
  /** Hashes of this customer's keys the upstream refused the transactions scope (primary shape: scopes unreported). */
  noScope: Set<string>;
  /** When the last verification was started (periodic verification while active). */
  lastVerifyStartMs: number | null;
  /** The last head sync's end as this process saw it (the 30 s rule without a store read). */
  lastHeadMs: number | null;
  /** A sentence for the person when the last run failed, else null. */
  error: string | null;
}

/**
 * The customer's id in the store: the account's customer code when the session knows it (`code:PFL`), else the
 * key pair's hash (`key:…`, for a key without the account scope). The prefixes keep the two kinds apart, so two
 * customers never share an id; the hash is one-way, so the id reveals nothing of the secret.
 */
export function mirrorCustomerId(session: Pick<ActiveSession, "customerCode" | "credentials">): string {
  return session.customerCode !== null && session.customerCode !== ""
    ? `code:${session.customerCode}`
    : `key:${credentialKey(session.credentials)}`;
}

/**
 * Reported scopes (the alternative shape) that include reading transactions. The primary shape reports none: there a
 * key proves the scope with a call of its own at sign-in (./key-scope.ts), never by default.
 */
export function hasTransactionsScope(scopes: readonly string[]): boolean {
  return scopes.includes("transactions") || scopes.includes("read");
}

export class LiveCustomers {
  readonly #byId = new Map<string, LiveCustomer>();

  get(id: string): LiveCustomer | undefined {
    return this.#byId.get(id);
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /**
   * Records a request of this session: the customer's entry (created when new), its session, and its key pair as the
   * one a sync uses when `mayRead` (the key proved the transactions scope).
   */
  touch(session: ActiveSession, nowMs: number, untilMs: number, mayRead = true): LiveCustomer {
    const id = mirrorCustomerId(session);
    let customer = this.#byId.get(id);
    if (!customer) {
      customer = {
        id,
        credentials: null,
        keyHash: null,
        sessions: new Map(),
        provenLiveMs: new Map(),
        lastSeenMs: nowMs,
        running: null,
        headAgain: false,
        noScope: new Set(),
        lastVerifyStartMs: null,
        lastHeadMs: null,
        error: null,
      };
      this.#byId.set(id, customer);
    }
    const keyHash = credentialKey(session.credentials);
    // The latest session's pair is the one a sync uses (a pair the upstream refused is replaced by the next one seen),
    // unless the upstream refused that pair the transactions scope.
    if (mayRead && !customer.noScope.has(keyHash)) {
      customer.credentials = session.credentials;
      customer.keyHash = keyHash;
    }
    customer.sessions.set(session.sid, { keyHash, untilMs });
    customer.lastSeenMs = Math.max(customer.lastSeenMs, nowMs);
    return customer;
  }

  /** Forgets a key the upstream refused: its pair and its sessions (returned, for the caller to end them). */
  refuse(customer: LiveCustomer, keyHash: string): { sid: string; untilMs: number }[] {
    const ended = [...customer.sessions].filter(([, s]) => s.keyHash === keyHash);
    for (const [sid] of ended) customer.sessions.delete(sid);
    customer.provenLiveMs.delete(keyHash);
    if (customer.keyHash === keyHash) {
      customer.credentials = null;
      customer.keyHash = null;
    }
    return ended.map(([sid, s]) => ({ sid, untilMs: s.untilMs }));
  }

  /** Forgets a customer now (its last session signed out), stopping its sync. */
  drop(id: string): void {
    this.#byId.get(id)?.running?.abort.abort(new Error("signed out"));
    this.#byId.delete(id);
  }

  /** Drops the customers without a request for `idleMs` (their sessions have timed out): key pairs leave memory. */
  sweep(nowMs: number, idleMs: number): void {
    for (const [id, customer] of this.#byId) {
      if (nowMs - customer.lastSeenMs >= idleMs) this.drop(id);
    }
  }

  ids(): string[] {
    return [...this.#byId.keys()];
  }

  clear(): void {
    for (const customer of this.#byId.values()) customer.running?.abort.abort(new Error("closing"));
    this.#byId.clear();
  }
}
