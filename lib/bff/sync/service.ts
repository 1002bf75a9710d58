import "server-only";

import { credentialKey } from "@/lib/fleet-api";
import { MemorySyncLock, MirrorStore, purgeUnused } from "@/lib/mirror";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";

import type { MirrorAccess } from "../platform/mirror-access";
import type { ActiveSession } from "../platform/session";
import { BackgroundComparisons } from "./comparisons";
import { type LiveCustomer, LiveCustomers, mirrorCustomerId } from "./customers";
import { KeyScopes, type ScopeVerdict } from "./key-scope";
import { LIVE_FOR_MS, type MirrorServiceOptions, SyncRuns } from "./runs";
import { errorSentence, offStatus, readSyncState, storeUnavailable, syncStatus } from "./status";

export { HEAD_EVERY_MS, LIVE_FOR_MS, type MirrorServiceOptions } from "./runs";

const SWEEP_EVERY_MS = 60_000;

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
  readonly #runs: SyncRuns;
  readonly #comparisons: BackgroundComparisons;
  #store: Promise<MirrorStore> | null = null;
  readonly #timers: NodeJS.Timeout[] = [];

  constructor(options: MirrorServiceOptions) {
    this.#options = options;
    this.#scopes = new KeyScopes({
      store: () => this.start(),
      client: options.client,
      now: options.now,
      warn: options.warn,
    });
    this.#comparisons = new BackgroundComparisons(() => this.start(), {
      lock: options.lock ?? new MemorySyncLock(),
      warn: options.warn,
      ...(options.detach ? { detach: options.detach } : {}),
    });
    // After each sync run (its writes marked the fills they changed), the pending comparisons in the background.
    this.#runs = new SyncRuns(
      options,
      this.#customers,
      this.#scopes,
      () => this.start(),
      (customerId) => {
        this.#comparisons.kick(customerId);
      },
    );
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
    // Known before the probe opens the store: the retention run at its opening keeps the customers signed in now.
    const customer = this.#touch(session, false);
    let verdict: ScopeVerdict;
    try {
      verdict = await this.#scopes.signedIn(session);
    } catch (error) {
      // The mirror's database not answering must not stop the sign-in; the gate asks again (and answers 503).
      this.#runs.warn(error, "storing the transactions scope check");
      return;
    }
    const keyHash = credentialKey(session.credentials);
    if (verdict === "refused") customer.noScope.add(keyHash);
    if (verdict !== "proven") return;
    customer.noScope.delete(keyHash);
    customer.credentials = session.credentials;
    customer.keyHash = keyHash;
    this.#runs.proven(customer, keyHash);
    this.#runs.run(customer, this.#runs.phasesNow(customer));
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
      this.#runs.warn(error, "reading the transactions scope check");
      return "unknown";
    }
  }

  /** The transactions scope in the upstream's naming (`read` in the primary shape), for the 403's sentence. */
  transactionsScopeName(): string {
    return this.#options.client.scopeNameOf("transactions");
  }

  /** Sign-out: that session no longer keeps its customer's key in memory; the last one out stops the sync. */
  signedOut(session: ActiveSession): void {
    const customer = this.#customers.get(mirrorCustomerId(session));
    if (!customer) return;
    customer.sessions.delete(session.sid);
    if (customer.sessions.size === 0) this.#customers.drop(customer.id);
  }

  /**
   * An upstream call with this session's key succeeded (lib/bff/http/handler): the key is proven live — only for a key
   * this process already saw prove the transactions scope (a call to the station catalog proves nothing of it).
   */
  provenLive(session: ActiveSession): void {
    const customer = this.#customers.get(mirrorCustomerId(session));
    const keyHash = credentialKey(session.credentials);
    if (!this.enabled || !customer?.provenLiveMs.has(keyHash) || customer.noScope.has(keyHash)) return;
    this.#runs.proven(this.#touch(session), keyHash);
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
      this.#runs.fresh(customer);
      return null;
    }
    return {
      store,
      customerId: customer.id,
      state,
      requestFresh: () => {
        this.#runs.fresh(customer);
      },
      comparePending: () => {
        this.#comparisons.kick(customer.id);
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
    if (state.lastHeadSyncMs === null && customer.running === null) this.#runs.fresh(customer);
    const next = Math.max(this.#options.now(), this.#runs.nextHeadMs(customer, state.lastHeadSyncMs));
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
      const due = this.#options.now() >= this.#runs.nextHeadMs(customer, state.lastHeadSyncMs);
      if (due && !customer.noScope.has(credentialKey(session.credentials)))
        this.#runs.run(customer, ["head", "backfill"]);
    }
    return this.status(session);
  }

  /** Stops every sync and closes the store (tests, shutdown). */
  async close(): Promise<void> {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    const ids = this.#customers.ids();
    const running = ids.flatMap((id) => this.#customers.get(id)?.running?.promise ?? []);
    this.#customers.clear();
    await Promise.allSettled(running);
    await Promise.allSettled(ids.map((id) => this.#comparisons.settled(id)));
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

  /** `mayRead`: the key proved the transactions scope, so its pair may be the one the customer's sync uses. */
  #touch(session: ActiveSession, mayRead = true): LiveCustomer {
    const now = this.#options.now();
    return this.#customers.touch(session, now, session.createdAt + this.#options.absoluteMs, mayRead);
  }
}
