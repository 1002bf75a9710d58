import "server-only";

import { credentialKey, type FleetApiClient } from "@/lib/fleet-api";
import { MirrorStore, MirrorSync, type SyncLock, type SyncOutcome, type SyncPhase } from "@/lib/mirror";
import { purgeUnused } from "@/lib/mirror/usage";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";

import type { MirrorConfig } from "../config-mirror";
import type { ActiveSession } from "../session";
import type { MirrorAccess } from "./access";
import { type LiveCustomer, LiveCustomers, mirrorCustomerId } from "./customers";
import { KeyScopes, type ScopeVerdict } from "./key-scope";
import { errorSentence, offStatus, readSyncState, storeUnavailable, syncStatus } from "./status";
import { checkTotals30d } from "./totals-check";

/** A head sync at most this often per customer, and only when a page asks for fresh data. */
const HEAD_EVERY_MS = 30_000;
/** Verification again after this much activity since the last one began. */
const VERIFY_EVERY_MS = 15 * 60_000;
/** A key is proven live for this long after an upstream call with it succeeded. */
export const LIVE_FOR_MS = 5 * 60_000;
const SWEEP_EVERY_MS = 60_000;

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
 * The per-process mirror service (issue 15): one store, one MirrorSync, and in memory only the key pairs of the
 * customers signed in now. It syncs at sign-in (head, backfill, verification in the background), then a head sync at
 * most every 30 s when a page asks for fresh data, a verification after 15 minutes of activity, and nothing once a
 * customer's sessions have gone quiet for the idle timeout. A 401 stops the sync and ends that key's sessions.
 */
export class MirrorService {
  readonly #options: MirrorServiceOptions;
  readonly #customers = new LiveCustomers();
  readonly #scopes: KeyScopes;
  #store: Promise<MirrorStore> | null = null;
  #sync: MirrorSync | null = null;
  readonly #timers: NodeJS.Timeout[] = [];

  constructor(options: MirrorServiceOptions) {
    this.#options = options;
    this.#scopes = new KeyScopes({
      store: () => this.start(),
      client: options.client,
      now: options.now,
      warn: options.warn,
    });
  }

  get enabled(): boolean {
    return this.#options.config.enabled;
  }

  /**
   * Opens the store (its migrations run) and deletes mirrors unused past the retention (the daily check is
   * ./retention.ts, started with the app), then sweeps idle customers out of memory each minute.
   */
  start(): Promise<MirrorStore> {
    if (this.#store === null) {
      const { config } = this.#options;
      const opening = MirrorStore.open({ databaseUrl: config.databaseUrl, path: config.path }).then(async (store) => {
        await this.#retention(store);
        const sweep = setInterval(() => {
          this.#customers.sweep(this.#options.now(), this.#options.idleMs);
        }, SWEEP_EVERY_MS);
        sweep.unref();
        this.#timers.push(sweep);
        return store;
      });
      // A store that failed to open is tried again on the next use.
      opening.catch(() => (this.#store = null));
      this.#store = opening;
    }
    return this.#store;
  }

  /** Deletes the mirrors unused for the retention period (never a customer signed in now); returns their ids. */
  async retention(): Promise<string[]> {
    return this.#retention(await this.start());
  }

  #retention(store: MirrorStore): Promise<string[]> {
    const cutoff = this.#options.now() - this.#options.config.retentionMs;
    return purgeUnused(store, cutoff, (id) => this.#customers.has(id));
  }

  /**
   * Sign-in: the key proves the transactions scope with a call of its own (the primary upstream reports no scopes:
   * one `GET /transactions?limit=1`; its verdict is stored with the customer until the key signs in again), then
   * the customer is remembered and synced (verifying unless this process began one < 15 min ago: cheap). A key
   * refused the scope never becomes the customer's sync key and the local copy never serves it.
   */
  async signedIn(session: ActiveSession): Promise<void> {
    if (!this.enabled) return;
    let verdict: ScopeVerdict;
    try {
      verdict = await this.#scopes.signedIn(session);
    } catch (error) {
      // The mirror's database not answering must not stop the sign-in; the gate asks again (and answers 503).
      this.#warn(error, "storing the transactions scope check");
      return;
    }
    if (verdict !== "proven") return;
    const customer = this.#touch(session);
    const keyHash = credentialKey(session.credentials);
    customer.noScope.delete(keyHash);
    customer.credentials = session.credentials;
    customer.keyHash = keyHash;
    this.#proven(customer, keyHash);
    this.#run(customer, this.#phasesNow(customer));
  }

  /**
   * Whether the session's key may read transactions (the route adapter refuses a `reads: "transactions"` operation
   * with 403 on `refused`). `unknown` when the mirror is off or its database is not answering: the route runs and
   * the upstream decides.
   */
  async transactionsVerdict(session: ActiveSession): Promise<ScopeVerdict> {
    if (!this.enabled) return session.scopes === null ? "unknown" : await this.#scopes.signedIn(session);
    try {
      return await this.#scopes.verdict(session);
    } catch (error) {
      this.#warn(error, "reading the transactions scope check");
      return "unknown";
    }
  }

  /** Sign-out: that session no longer keeps its customer's key in memory; the last one out stops the sync. */
  signedOut(session: ActiveSession): void {
    const customer = this.#customers.get(mirrorCustomerId(session));
    if (!customer) return;
    customer.sessions.delete(session.sid);
    if (customer.sessions.size === 0) this.#customers.drop(customer.id);
  }

  /**
   * An upstream call with this session's key succeeded (lib/bff/handler): the key is proven live — only for a key
   * this process already saw prove the transactions scope (a call to the station catalog proves nothing of it).
   */
  provenLive(session: ActiveSession): void {
    const customer = this.#customers.get(mirrorCustomerId(session));
    const keyHash = credentialKey(session.credentials);
    if (!this.enabled || !customer?.provenLiveMs.has(keyHash) || customer.noScope.has(keyHash)) return;
    this.#proven(this.#touch(session), keyHash);
  }

  /** The gate (MirrorGate): the customer's mirror when this session may read it now, else null. */
  async gate(session: ActiveSession): Promise<MirrorAccess | null> {
    if (!this.enabled || (await this.#verdict(session)) !== "proven") return null;
    const customer = this.#touch(session);
    const keyHash = credentialKey(session.credentials);
    if (customer.noScope.has(keyHash)) return null;
    const [store, state] = await readSyncState(() => this.start(), customer.id);
    customer.lastHeadMs ??= state.lastHeadSyncMs;
    customer.lastVerifyStartMs ??= state.lastVerificationMs;
    const live = customer.provenLiveMs.get(keyHash);
    if (state.lastHeadSyncMs === null || live === undefined || this.#options.now() - live > LIVE_FOR_MS) {
      // Not readable yet; a head sync (at most every 30 s) proves the key and fills the mirror for the next request.
      this.#fresh(customer);
      return null;
    }
    return {
      store,
      customerId: customer.id,
      state,
      requestFresh: () => {
        this.#fresh(customer);
      },
    };
  }

  /** GET /api/sync: where this session's customer's mirror stands. */
  async status(session: ActiveSession): Promise<SyncStatusReply> {
    if (!this.enabled) return offStatus(null);
    const verdict = await this.#verdict(session);
    if (verdict !== "proven") return offStatus(errorSentence(verdict === "refused" ? "scope_denied" : "scope_unknown"));
    const customer = this.#touch(session);
    if (customer.noScope.has(credentialKey(session.credentials))) return offStatus(errorSentence("scope_denied"));
    const [store, state] = await readSyncState(() => this.start(), customer.id);
    // Nothing mirrored yet and nothing running (a restart since sign-in): begin.
    if (state.lastHeadSyncMs === null && customer.running === null) this.#fresh(customer);
    const next = Math.max(this.#options.now(), this.#nextHeadMs(customer, state.lastHeadSyncMs));
    return {
      ...syncStatus(state, await store.rowCount(customer.id), customer),
      nextHeadSync: new Date(next).toISOString(),
    };
  }

  /**
   * POST /api/sync: a head sync now — unless one began less than 30 s ago (whatever is posted: one person must not keep
   * the key's bulk share of the budget busy), after the run in progress if any; the status as it then stands, with
   * `nextHeadSync`, when the next one may start.
   */
  async syncNow(session: ActiveSession): Promise<SyncStatusReply> {
    if (this.enabled && (await this.#verdict(session)) === "proven") {
      const customer = this.#touch(session);
      const [, state] = await readSyncState(() => this.start(), customer.id);
      const due = this.#options.now() >= this.#nextHeadMs(customer, state.lastHeadSyncMs);
      if (due && !customer.noScope.has(credentialKey(session.credentials))) this.#run(customer, ["head", "backfill"]);
    }
    return this.status(session);
  }

  /** Stops every sync and closes the store (tests, shutdown). */
  async close(): Promise<void> {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    const running = this.#customers.ids().flatMap((id) => this.#customers.get(id)?.running?.promise ?? []);
    this.#customers.clear();
    await Promise.allSettled(running);
    const store = this.#store;
    this.#store = null;
    if (store) await (await store).close();
  }

  /** The key's verdict for the gate and GET|POST /api/sync: the mirror's database not answering is a 503. */
  async #verdict(session: ActiveSession): Promise<ScopeVerdict> {
    try {
      return await this.#scopes.verdict(session);
    } catch (error) {
      throw storeUnavailable(error);
    }
  }

  /** When the next head sync may begin: 30 s after the last one began here or (another instance's) ended. */
  #nextHeadMs(customer: LiveCustomer, storedHeadMs: number | null): number {
    const last = Math.max(customer.lastHeadMs ?? -Infinity, storedHeadMs ?? -Infinity);
    return last + HEAD_EVERY_MS;
  }

  #touch(session: ActiveSession): LiveCustomer {
    const now = this.#options.now();
    return this.#customers.touch(session, now, session.createdAt + this.#options.absoluteMs);
  }

  #proven(customer: LiveCustomer, keyHash: string): void {
    customer.provenLiveMs.set(keyHash, this.#options.now());
  }

  /** A page asks for fresh data: a head sync when the last is 30 s old (with a verification every 15 min). */
  #fresh(customer: LiveCustomer): void {
    const now = this.#options.now();
    if (customer.lastHeadMs !== null && now - customer.lastHeadMs < HEAD_EVERY_MS) return;
    this.#run(customer, this.#phasesNow(customer));
  }

  /** Head and backfill, with a verification when the last one began 15 minutes ago or is unknown. */
  #phasesNow(customer: LiveCustomer): SyncPhase[] {
    const last = customer.lastVerifyStartMs;
    const verify = last === null || this.#options.now() - last >= (this.#options.verifyEveryMs ?? VERIFY_EVERY_MS);
    // The backfill phase returns at once when history is complete; after a restart it resumes where it stopped.
    return verify ? ["head", "backfill", "verify"] : ["head", "backfill"];
  }

  #run(customer: LiveCustomer, phases: readonly SyncPhase[]): void {
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
          await this.#syncer()
        ).run(customer.id, credentials, {
          signal: running.abort.signal,
          phases,
          onProgress: (progress) => {
            running.progress = progress;
            this.#proven(customer, keyHash);
          },
        });
        await this.#finish(customer, keyHash, outcome);
        if (outcome.status === "done" && outcome.verification)
          await checkTotals30d({
            store: await this.start(),
            client: this.#options.client,
            customerId: customer.id,
            credentials,
            nowMs: this.#options.now(),
            warn: this.#options.warn,
          });
      } catch (error) {
        customer.error = errorSentence("internal");
        this.#warn(error, "mirror sync");
      } finally {
        customer.running = null;
        if (customer.headAgain && this.#customers.get(customer.id) === customer) this.#run(customer, ["head"]);
      }
    };
    running.promise = this.#options.detach ? this.#options.detach(work) : work();
  }

  async #finish(customer: LiveCustomer, keyHash: string, outcome: SyncOutcome): Promise<void> {
    if (outcome.status === "done") {
      customer.error = null;
      customer.lastHeadMs = outcome.state.lastHeadSyncMs ?? customer.lastHeadMs;
      this.#proven(customer, keyHash);
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
          this.#warn(error, "storing the refused transactions scope");
        });
        if (customer.keyHash === keyHash) {
          customer.credentials = null;
          customer.keyHash = null;
        }
      } else customer.error = errorSentence(code);
      this.#options.warn({ customer: customer.id, code }, "mirror sync failed");
    }
  }

  async #syncer(): Promise<MirrorSync> {
    const store = await this.start();
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

  #warn(error: unknown, where: string): void {
    this.#options.warn({ err: error instanceof Error ? error.message : String(error) }, `${where} failed`);
  }
}
