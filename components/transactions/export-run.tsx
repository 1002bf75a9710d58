"use client";

import { type Dispatch, type SetStateAction, useEffect, useRef } from "react";

import { buttonClasses } from "@/components/ui/button";
import { formatCount } from "@/lib/format/numbers";
import type { ExportFormat } from "@/lib/model";

import type { ExportFilters, ExportStatus } from "./export-controls";
import { EXPORT_FORMAT_LABELS, exportUrl, formatDuration, newExportId, runExport } from "./export-download";
import { secondsLeftAt, updateEstimate } from "./export-estimate";

/**
 * The export's running part, a chunk of its own that export-controls.tsx loads at the first click on Export (issue
 * 26: the list's page does not carry it).
 */

export { clockMs, saveBlob } from "./export-download";

/** Runs one export of the filters, folding each progress report into the running status (and its time estimate). */
export function runFilteredExport(
  filters: ExportFilters,
  format: ExportFormat,
  signal: AbortSignal,
  setStatus: Dispatch<SetStateAction<ExportStatus>>,
) {
  const exportId = newExportId();
  return runExport(
    exportUrl(filters, format, exportId),
    exportId,
    signal,
    (tick) => {
      const at = Date.now();
      setStatus((current) =>
        current.kind === "running"
          ? {
              ...current,
              rowsDone: tick.rowsDone,
              total: tick.total,
              estimate: updateEstimate(current.estimate, tick.rowsDone, tick.total, tick.rate, at),
              now: at,
            }
          : current,
      );
    },
    `fleet-fuel-transactions.${format}`,
  );
}

/** A running export: its progress, the time left and Cancel, which has the focus from the start. */
export function ExportProgressPanel({
  status,
  onCancel,
}: {
  status: Extract<ExportStatus, { kind: "running" }>;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    cancelRef.current?.focus();
  }, []);
  const { rowsDone, total, format } = status;
  const secondsLeft = secondsLeftAt(status.estimate, status.now);
  const label = `Exporting ${EXPORT_FORMAT_LABELS[format]}`;
  const counts =
    total === null ? `${formatCount(rowsDone)} rows done` : `${formatCount(rowsDone)} of ${formatCount(total)} rows`;
  return (
    <div
      className="ml-auto w-full max-w-md basis-full rounded-md border border-slate-200 bg-white p-3 text-sm shadow-sm dark:border-slate-700 dark:bg-slate-900"
      data-testid="export-progress"
    >
      <div className="flex items-center justify-between gap-3">
        <label htmlFor="export-progress-bar" className="font-medium text-slate-900 dark:text-slate-50">
          {label}
        </label>
        <button type="button" ref={cancelRef} onClick={onCancel} className={buttonClasses("secondary", "px-3 py-1")}>
          Cancel
        </button>
      </div>
      <progress
        id="export-progress-bar"
        className="mt-2 h-2 w-full accent-brand-700"
        max={total ?? undefined}
        value={total === null ? undefined : Math.min(rowsDone, total)}
        aria-valuetext={counts}
      />
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        {counts}
        {secondsLeft === null ? "" : ` · about ${formatDuration(secondsLeft)} left`}
      </p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        The time is limited by the Fleet Fuel API&apos;s request budget.
      </p>
    </div>
  );
}
