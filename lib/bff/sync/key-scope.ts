import "server-only";

import { credentialKey, type FleetApiClient, isFleetApiError } from "@/lib/fleet-api";
import { type MirrorStore, readKeyScope, writeKeyScope } from "@/lib/mirror";

import type { ActiveSession } from "../platform/session";
import { hasTransactionsScope, mirrorCustomerId } from "./customers";

/**
 * Whether a session's key may read transactions, as far as the local copy is concerned (issue 24 item 1).
 * `proven`: the key's own upstream call showed it (the alternative upstream reports scopes at sign-in; the primary one
 * answered the key's `GET /transactions?limit=1`). `refused`: the upstream refused the key the scope. `unknown`: not
 * found out (the probe failed for another reason, or the mirror is off): the local copy does not serve the key, and
 * the route asks the upstream, which decides.
 */
export type ScopeVerdict = "proven" | "refused" | "unknown";

/** After a probe that found nothing out (upstream busy or down), the next one waits this long. */
const PROBE_RETRY_MS = 30_000;

type Session = Pick<ActiveSession, "credentials" | "customerCode" | "scopes">;

interface KeyScopesOptions {
  store: () => Promise<MirrorStore>;
  client: FleetApiClient;
  now: () => number;
  warn: (fields: Record<string, unknown>, message: string) => void;
}

/**
 * The verdicts live in the mirror's database (lib/mirror/key-scopes), not in memory: they hold across a restart and
 * across instances sharing a PostgreSQL mirror, and a new sign-in of the key replaces its verdict. One probe per key
 * at a time in this process (concurrent first requests after a restart share it).
 */
export class KeyScopes {
  readonly #options: KeyScopesOptions;
  readonly #probing = new Map<string, Promise<ScopeVerdict>>();
  /** Key → when its last probe found nothing out: pages polling must not turn into a probe per request. */
  readonly #failedMs = new Map<string, number>();

  constructor(options: KeyScopesOptions) {
    this.#options = options;
  }

  /** At sign-in: a new verdict for the key (reported scopes, else one upstream call of its own), stored. */
  async signedIn(session: Session): Promise<ScopeVerdict> {
    if (session.scopes !== null) return reported(session.scopes);
    this.#failedMs.delete(idOf(session));
    return this.#probeOnce(session);
  }

  /** The key's verdict: reported scopes, else the stored one, else a probe (a session older than its verdict). */
  async verdict(session: Session): Promise<ScopeVerdict> {
    if (session.scopes !== null) return reported(session.scopes);
    const stored = await readKeyScope(
      (await this.#options.store()).db,
      mirrorCustomerId(session),
      credentialKey(session.credentials),
    );
    if (stored !== null) return stored.transactions ? "proven" : "refused";
    return this.#probeOnce(session);
  }

  /** A sync run with the key was refused the scope (the scope was taken from the key since its probe). */
  async refused(customerId: string, keyHash: string): Promise<void> {
    await this.#store(customerId, keyHash, false);
  }

  #probeOnce(session: Session): Promise<ScopeVerdict> {
    const id = idOf(session);
    const failed = this.#failedMs.get(id);
    if (failed !== undefined && this.#options.now() - failed < PROBE_RETRY_MS) return Promise.resolve("unknown");
    let probing = this.#probing.get(id);
    if (probing === undefined) {
      probing = this.#probe(session)
        .then((verdict) => {
          if (verdict === "unknown") this.#failedMs.set(id, this.#options.now());
          else this.#failedMs.delete(id);
          return verdict;
        })
        .finally(() => this.#probing.delete(id));
      this.#probing.set(id, probing);
    }
    return probing;
  }

  /** One `GET /transactions?limit=1` with the key: its answer is the verdict, stored with the customer. */
  async #probe(session: Session): Promise<ScopeVerdict> {
    const customerId = mirrorCustomerId(session);
    const keyHash = credentialKey(session.credentials);
    let transactions: boolean;
    try {
      await this.#options.client.listTransactions(session.credentials, { limit: 1 }, { priority: "interactive" });
      transactions = true;
    } catch (error) {
      if (!isFleetApiError(error) || error.code !== "scope_denied") {
        this.#options.warn(
          { customer: customerId, code: isFleetApiError(error) ? error.code : "internal" },
          "the transactions scope check failed",
        );
        return "unknown";
      }
      transactions = false;
    }
    await this.#store(customerId, keyHash, transactions);
    return transactions ? "proven" : "refused";
  }

  async #store(customerId: string, keyHash: string, transactions: boolean): Promise<void> {
    const store = await this.#options.store();
    await writeKeyScope(store.db, customerId, keyHash, { transactions, checkedMs: this.#options.now() });
  }
}

const idOf = (session: Session) => `${mirrorCustomerId(session)}\u0000${credentialKey(session.credentials)}`;

function reported(scopes: readonly string[]): ScopeVerdict {
  return hasTransactionsScope(scopes) ? "proven" : "refused";
}
