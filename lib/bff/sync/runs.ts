import "server-only";

import type { FleetApiClient } from "@/lib/fleet-api";
import { type MirrorStore, MirrorSync, type SyncLock, type SyncOutcome, type SyncPhase } from "@/lib/mirror";

import type { MirrorConfig } from "../platform/config-mirror";
import type { LiveCustomer, LiveCustomers } from "./customers";
import type { KeyScopes } from "./key-scope";
import { errorSentence } from "./status";
import { checkTotals30d } from "./totals-check";

/** A head sync at most this often per customer: when a page asks for fresh data, or "sync now" is posted. */
export const HEAD_EVERY_MS = 30_000;
/** Verification again after this much activity since the last one began. */
const VERIFY_EVERY_MS = 15 * 60_000;
/** A key is proven live for this long after an upstream call with it succeeded. */
export const LIVE_FOR_MS = 5 * 60_000;

export interface MirrorServiceOptions {
  config: MirrorConfig;
  client: FleetApiClient;
  /** The upstream's budget window (the backfill's time left). */
  windowMs: number;
  /** The session idle timeout: a customer without a request for this long leaves memory, key pair and all. */
  idleMs: number;
  /** The session absolute timeout: how long a revocation of one of its sessions must last. */
  absoluteMs: number;
  now: () => number;
  /** Verification again after this much activity since the last one began (default 15 minutes). */
  verifyEveryMs?: number;
  /** One sync per customer at a time: in memory now; a Redis lock (issue 17) fits the same interface. */
  lock?: SyncLock;
  pageSize?: number;
  /** Ends the sessions of a key the upstream refused (revocations) and forgets its cached answers. */
  endSessions: (sessions: { sid: string; untilMs: number }[], keyHash: string) => Promise<void>;
  warn: (fields: Record<string, unknown>, message: string) => void;
  /** Runs background work outside the request that started it (its log line must not collect the sync's calls). */
  detach?: <T>(fn: () => T) => T;
}

/**
 * The mirror service's sync runs (./service.ts): one per customer at a time, with the 30 s head rule, the verification
 * every 15 minutes of activity, and what a run's outcome means for the customer and its keys.
 */
export class SyncRuns {
  readonly #options: MirrorServiceOptions;
  readonly #customers: LiveCustomers;
  readonly #scopes: KeyScopes;
  readonly #start: () => Promise<MirrorStore>;
  readonly #afterRun: (customerId: string) => void;
  #sync: MirrorSync | null = null;

  constructor(
    options: MirrorServiceOptions,
    customers: LiveCustomers,
    scopes: KeyScopes,
    start: () => Promise<MirrorStore>,
    afterRun: (customerId: string) => void = () => undefined,
  ) {
    this.#afterRun = afterRun;
    this.#options = options;
    this.#customers = customers;
    this.#scopes = scopes;
    this.#start = start;
  }

  /** When the next head sync may begin: 30 s after the last one began here or (another instance's) ended. */
  nextHeadMs(customer: LiveCustomer, storedHeadMs: number | null): number {
    const last = Math.max(customer.lastHeadMs ?? -Infinity, storedHeadMs ?? -Infinity);
    return last + HEAD_EVERY_MS;
  }

  proven(customer: LiveCustomer, keyHash: string): void {
    customer.provenLiveMs.set(keyHash, this.#options.now());
  }

  /** A page asks for fresh data: a head sync when the last is 30 s old (with a verification every 15 min). */
  fresh(customer: LiveCustomer): void {
    const now = this.#options.now();
    if (customer.lastHeadMs !== null && now - customer.lastHeadMs < HEAD_EVERY_MS) return;
    this.run(customer, this.phasesNow(customer));
  }

  /** Head and backfill, with a verification when the last one began 15 minutes ago or is unknown. */
  phasesNow(customer: LiveCustomer): SyncPhase[] {
    const last = customer.lastVerifyStartMs;
    const verify = last === null || this.#options.now() - last >= (this.#options.verifyEveryMs ?? VERIFY_EVERY_MS);
    // The backfill phase returns at once when history is complete; after a restart it resumes where it stopped.
    return verify ? ["head", "backfill", "verify"] : ["head", "backfill"];
  }

  run(customer: LiveCustomer, phases: readonly SyncPhase[]): void {
    if (customer.running !== null) {
      customer.headAgain = true;
      return;
    }
    const { credentials, keyHash } = customer;
    if (credentials === null || keyHash === null) return;
    const now = this.#options.now();
    customer.lastHeadMs = now;
    if (phases.includes("verify")) customer.lastVerifyStartMs = now;
    customer.headAgain = false;
    const running: NonNullable<LiveCustomer["running"]> = {
      abort: new AbortController(),
      progress: null,
      promise: Promise.resolve(),
    };
    customer.running = running;
    const work = async () => {
      try {
        const outcome = await (
          await this.syncer()
        ).run(customer.id, credentials, {
          signal: running.abort.signal,
          phases,
          onProgress: (progress) => {
            running.progress = progress;
            this.proven(customer, keyHash);
          },
        });
        await this.finish(customer, keyHash, outcome);
        if (outcome.status === "done" && outcome.verification)
          await checkTotals30d({
            store: await this.#start(),
            client: this.#options.client,
            customerId: customer.id,
            credentials,
            nowMs: this.#options.now(),
            warn: this.#options.warn,
          });
      } catch (error) {
        customer.error = errorSentence("internal");
        this.warn(error, "mirror sync");
      } finally {
        customer.running = null;
        // Whatever the outcome, the run may have written rows: their fills' comparisons, in the background.
        this.#afterRun(customer.id);
        if (customer.headAgain && this.#customers.get(customer.id) === customer) this.run(customer, ["head"]);
      }
    };
    running.promise = this.#options.detach ? this.#options.detach(work) : work();
  }

  private async finish(customer: LiveCustomer, keyHash: string, outcome: SyncOutcome): Promise<void> {
    if (outcome.status === "done") {
      customer.error = null;
      customer.lastHeadMs = outcome.state.lastHeadSyncMs ?? customer.lastHeadMs;
      this.proven(customer, keyHash);
    } else if (outcome.status === "unauthenticated") {
      // The upstream no longer accepts the key: stop, forget it, end its sessions (their next request gets a 401).
      customer.headAgain = false;
      await this.#options.endSessions(this.#customers.refuse(customer, keyHash), keyHash);
      customer.error = errorSentence("unauthenticated");
    } else if (outcome.status === "failed") {
      const code = outcome.state.lastError ?? "internal";
      if (code === "scope_denied") {
        // The key's lack, not the mirror's fault: that key's sessions are told (status), the customer's other keys'
        // sessions still see the mirror as it stands (its error stays what the last run with a key that may read set).
        customer.noScope.add(keyHash);
        // Stored: the local copy refuses the key from now on, here and after a restart, until it signs in again.
        await this.#scopes.refused(customer.id, keyHash).catch((error: unknown) => {
          this.warn(error, "storing the refused transactions scope");
        });
        if (customer.keyHash === keyHash) {
          customer.credentials = null;
          customer.keyHash = null;
        }
      } else customer.error = errorSentence(code);
      this.#options.warn({ customer: customer.id, code }, "mirror sync failed");
    }
  }

  private async syncer(): Promise<MirrorSync> {
    const store = await this.#start();
    const { client, lock, now, windowMs, pageSize } = this.#options;
    this.#sync ??= new MirrorSync({
      store,
      client,
      now,
      windowMs,
      ...(lock ? { lock } : {}),
      ...(pageSize ? { pageSize } : {}),
    });
    return this.#sync;
  }

  warn(error: unknown, where: string): void {
    this.#options.warn({ err: error instanceof Error ? error.message : String(error) }, `${where} failed`);
  }
}
