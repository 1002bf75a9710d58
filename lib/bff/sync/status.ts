import "server-only";

import type { MirrorStore, SyncState } from "@/lib/mirror";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";

import { BffError } from "../http/errors";
import type { LiveCustomer } from "./customers";

/**
 * The store and the customer's sync state, read first by every route that uses the mirror (the gate, GET /api/sync).
 * A database that does not answer (the mirror's PostgreSQL down) is a 503 that says so and can be retried, not a 500.
 */
export async function readSyncState(
  open: () => Promise<MirrorStore>,
  customerId: string,
): Promise<[MirrorStore, SyncState]> {
  try {
    const store = await open();
    return [store, await store.getSyncState(customerId)];
  } catch (error) {
    throw storeUnavailable(error);
  }
}

/** The 503 for a mirror database that does not answer, with its cause kept for the log. */
export function storeUnavailable(cause: unknown): BffError {
  return Object.assign(
    new BffError(
      "shared_state_unavailable",
      "The dashboard's database (the local copy of your transactions) is not answering. Please try again in a minute; if it persists, tell your administrator.",
      { "Retry-After": "30" },
    ),
    { cause },
  );
}

/** `GET /api/sync`'s reply from what the store says (SyncState, row count) and what the running sync reports. */

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function offStatus(error: string | null): SyncStatusReply {
  return {
    state: "off",
    running: false,
    coverage: { from: null, to: null },
    rows: 0,
    lastHeadSync: null,
    lastVerification: null,
    backfill: { done: 0, expected: null, complete: false, timeLeftMs: null },
    nextHeadSync: null,
    error,
  };
}

/** The stored VerificationReport (JSON in the store) read defensively: an older or foreign shape gives null. */
function verificationOf(state: SyncState): SyncStatusReply["lastVerification"] {
  const report = state.lastVerification;
  if (state.lastVerificationMs === null || typeof report !== "object" || report === null) return null;
  const { matched, refetchedDays } = report as { matched?: unknown; refetchedDays?: unknown };
  return {
    at: new Date(state.lastVerificationMs).toISOString(),
    ok: matched === true,
    repairedDays: Array.isArray(refetchedDays) ? refetchedDays.length : 0,
  };
}

/** The sentence for a stored error code (never the upstream's own text, which could echo a request). */
export function errorSentence(code: string): string {
  if (code === "unauthenticated")
    return "The Fleet Fuel API no longer accepts this key, so the local copy stopped updating. Please sign in again.";
  if (code === "scope_denied") return "This key may not read transactions, so there is no local copy for it.";
  if (code === "scope_unknown")
    return "The Fleet Fuel API has not yet confirmed that this key may read transactions, so the local copy is not used for it; it is asked again when a page needs it.";
  return `The last update of the local copy failed (${code}); it is tried again when a page asks for fresh data.`;
}

export function syncStatus(state: SyncState, rows: number, customer: LiveCustomer | undefined): SyncStatusReply {
  const running = customer?.running ?? null;
  const progress = running?.progress ?? null;
  // A stored `scope_denied` is a key's (the last run used a key that may not read transactions), not the mirror's:
  // the sessions of that key are told by `status` before this; the customer's other sessions see the mirror as it is.
  const storedError = state.lastError === "scope_denied" ? null : state.lastError;
  const failed = running === null && ((customer?.error ?? null) !== null || storedError !== null);
  const stateName: SyncStatusReply["state"] = failed
    ? "error"
    : state.lastHeadSyncMs === null
      ? "starting"
      : state.backfill.complete
        ? "ready"
        : "backfilling";
  return {
    state: stateName,
    running: running !== null,
    // Exact from the oldest row the walk reached up to the moment of the last head sync.
    coverage: { from: iso(state.coverageFromMs), to: iso(state.lastHeadSyncMs) },
    rows,
    lastHeadSync: iso(state.lastHeadSyncMs),
    lastVerification: verificationOf(state),
    backfill: {
      done: state.backfill.doneRows,
      expected: state.backfill.expected,
      complete: state.backfill.complete,
      timeLeftMs: state.backfill.complete ? 0 : progress?.phase === "backfill" ? progress.timeLeftMs : null,
    },
    nextHeadSync: null,
    error: failed ? (customer?.error ?? errorSentence(storedError ?? "internal")) : null,
  };
}
