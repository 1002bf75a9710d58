"use client";

import { Button } from "@/components/ui/button";
import { useClock } from "@/components/ui/use-clock";
import type { DataOrigin } from "@/lib/model/mirror-replies";
import type { BffRequestError } from "@/lib/queries/fetch-json";
import type { useSyncStatus } from "@/lib/queries/sync";
import type { MirrorFilterValues } from "@/lib/queries/transaction-filters";

import { mirrorCanAnswer, mirrorReachText, mirrorUnavailableText, originText } from "./mirror-text";
import { MoreFilters } from "./more-filters";

type SyncQuery = ReturnType<typeof useSyncStatus>;

/** The BFF's answer when a filter only the local copy answers is asked for and the local copy cannot answer it. */
export function isMirrorConflict(error: BffRequestError | null): error is BffRequestError {
  return error?.status === 409;
}

/**
 * Where the filters are: the filters only the local copy answers when it can (MoreFilters), else one line that says
 * why not; and the BFF's sentence when such a filter (from a link, or set before the copy stopped answering) was
 * refused, with the way out.
 */
export function MirrorFilterSlot({
  hydrated,
  sync,
  values,
  onChange,
  conflict,
  onRemove,
}: {
  /**
   * False on the server and while the page hydrates: the line then says what the server's HTML says ("Checking…"),
   * even when the sync status (fetched by the header, hydrated first) has already come: else React error #418.
   */
  hydrated: boolean;
  sync: SyncQuery;
  values: MirrorFilterValues;
  onChange: (patch: Partial<MirrorFilterValues>, mode?: "push" | "replace") => void;
  conflict: BffRequestError | null;
  onRemove: () => void;
}) {
  const status = hydrated ? sync.data : undefined;
  const unavailable = mirrorUnavailableText(status, { pending: !hydrated || sync.isPending, failed: sync.isError });
  const reach = mirrorReachText(status);
  return (
    <>
      {mirrorCanAnswer(status) ? (
        <>
          <MoreFilters values={values} onChange={onChange} />
          {reach === null ? null : (
            <p className="basis-full text-xs text-slate-600 dark:text-slate-400" data-testid="mirror-reach">
              {reach}
            </p>
          )}
        </>
      ) : (
        <p className="basis-full text-xs text-slate-600 dark:text-slate-400" data-testid="more-filters-unavailable">
          {unavailable}
        </p>
      )}
      {conflict === null ? null : (
        <div
          role="alert"
          data-testid="mirror-conflict"
          className="flex basis-full flex-wrap items-center gap-3 rounded-md border border-sky-300 bg-sky-50 p-3 text-sm text-sky-950 dark:border-sky-700 dark:bg-sky-950/60 dark:text-sky-50"
        >
          <p className="min-w-0 flex-1">{conflict.message}</p>
          <Button variant="secondary" onClick={onRemove}>
            Remove those filters
          </Button>
        </div>
      )}
    </>
  );
}

/** Ages on the line count seconds. */
const TICK_MS = 1_000;

/** A quiet line over the table: where its rows come from, and whether they are all of the range. */
export function OriginLine({ origin, partial }: { origin: DataOrigin | undefined; partial: string | null }) {
  const now = useClock(TICK_MS);
  if (origin === undefined) return null;
  return (
    <div className="space-y-1 text-xs text-slate-600 dark:text-slate-400">
      <p data-testid="data-origin">{originText(origin, now)}</p>
      {partial === null ? null : (
        <p data-testid="partial-notice" className="font-medium text-slate-800 dark:text-slate-200">
          {partial}
        </p>
      )}
    </div>
  );
}
