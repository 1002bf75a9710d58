"use client";

import { useClock } from "@/components/ui/use-clock";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";
import { useSyncNow, useSyncStatus } from "@/lib/queries/sync";

import { secondsUntilSyncNow, syncStatusText } from "./sync-status-text";

/** Ages on the line count seconds ("12 s ago"). */
const TICK_MS = 1_000;

/**
 * One quiet line by the tabs about the local copy of the customer's transactions (polled, see useSyncStatus), with
 * "Sync now" (waiting, with the seconds shown, while the last head sync is under 30 s old). Nothing when there is no local copy for this session, or while its state is unknown. Screen readers
 * hear the state when it changes, not the seconds.
 */
export function SyncStatusLine() {
  const status = useSyncStatus();
  const syncNow = useSyncNow();
  // The words a screen reader hears do not depend on the clock (see syncStatusText).
  const announce = status.data === undefined ? "" : (syncStatusText(status.data, 0)?.announce ?? "");
  return (
    <div className="flex min-w-0 flex-wrap items-center justify-end gap-x-3 text-xs" data-testid="sync-status">
      {/* Always in the page, so a change of its words is announced. */}
      <p role="status" className="sr-only">
        {announce}
      </p>
      {status.data === undefined || status.data.state === "off" ? null : (
        <>
          <StatusWords status={status.data} />
          <SyncNowButton
            status={status.data}
            pending={syncNow.isPending}
            onClick={() => {
              syncNow.mutate();
            }}
          />
        </>
      )}
      {syncNow.isError ? (
        <p role="alert" className="basis-full text-right text-red-700 dark:text-red-300">
          Sync now did not start: {syncNow.error.message}
        </p>
      ) : null}
    </div>
  );
}

/** The visible line, ages ticking: apart, so only it renders every second. Screen readers have the status above. */
function StatusWords({ status }: { status: SyncStatusReply }) {
  const now = useClock(TICK_MS);
  const text = syncStatusText(status, now);
  if (text === null) return null;
  return (
    <p
      aria-hidden="true"
      data-testid="sync-status-line"
      className={text.tone === "error" ? "text-red-700 dark:text-red-300" : "text-slate-600 dark:text-slate-400"}
    >
      {text.line}
    </p>
  );
}

/** "Sync now", or "Syncing…" while a run is in progress, or "Sync now · in 12 s" until the next one may start. */
function SyncNowButton({
  status,
  pending,
  onClick,
}: {
  status: SyncStatusReply;
  pending: boolean;
  onClick: () => void;
}) {
  const now = useClock(TICK_MS);
  const isRunning = pending || status.running;
  const waitS = secondsUntilSyncNow(status, now);
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={isRunning || waitS > 0}
      className="rounded font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:text-slate-600 disabled:no-underline dark:text-brand-300 dark:focus-visible:outline-brand-400 dark:disabled:text-slate-400"
    >
      {isRunning ? "Syncing…" : waitS > 0 ? `Sync now · in ${String(waitS)} s` : "Sync now"}
    </button>
  );
}
