import "server-only";

import type { MirrorStore, SyncState } from "@/lib/mirror";

import type { ActiveSession } from "./session";

/**
 * What an operation may read of the signed-in customer's mirror (issue 15). The gate (`mirrorFor`) answers null
 * unless the session's key has the transactions scope and is proven live (an upstream call with it succeeded in the
 * last 5 minutes), so a session reads only its own customer's rows and only while its key works.
 */
export interface MirrorAccess {
  store: MirrorStore;
  /** The customer's id in the store (never another customer's). */
  customerId: string;
  /** Coverage, last head sync, backfill progress, as read now. */
  state: SyncState;
  /** Asks for a head sync when the last one is older than 30 s; never waits for it. */
  requestFresh: () => void;
  /**
   * Starts computing the customer's pending savings comparisons in the background (lib/bff/sync/comparisons.ts), unless that
   * runs already; never waits for it.
   */
  comparePending: () => void;
}

/** The mirror an operation may read for this session, or null (no scope, not proven live, disabled, nothing yet). */
export type MirrorGate = (session: ActiveSession) => Promise<MirrorAccess | null>;
