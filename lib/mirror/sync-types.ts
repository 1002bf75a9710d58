import type { FleetApiClient } from "@/lib/fleet-api";

import type { SyncLock } from "./lock";
import type { MirrorStore } from "./store";
import type { VerificationReport } from "./sync-verify";
import type { SyncState } from "./types";

/** What a sync is given and what it reports (the engine is ./sync). */

export type SyncPhase = "head" | "backfill" | "verify";

export interface SyncProgress {
  phase: SyncPhase;
  /** Rows the backfill has written, of `rowsExpected` (the upstream's total of its list when it began). */
  rowsDone: number;
  rowsExpected: number | null;
  /** What is left of the backfill at the pace the budget allows (the reserve kept), in ms; null when unknown. */
  timeLeftMs: number | null;
}

export type SyncOutcome =
  | { status: "done"; state: SyncState; verification: VerificationReport | null }
  | { status: "busy" }
  | { status: "unauthenticated"; state: SyncState }
  | { status: "aborted"; state: SyncState }
  | { status: "failed"; state: SyncState; error: string };

export interface MirrorSyncOptions {
  store: MirrorStore;
  client: FleetApiClient;
  lock?: SyncLock;
  now?: () => number;
  lookbackMs?: number;
  pageSize?: number;
  /** The upstream's budget window, for the backfill's time left (default 60 000). */
  windowMs?: number;
  verifyRounds?: number;
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
  /** Which phases to run, default all three (head, then backfill, then verification). */
  phases?: readonly SyncPhase[];
}
