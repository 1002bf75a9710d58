"use client";

import { type Dispatch, type RefObject, type SetStateAction, useEffect, useRef, useState } from "react";

import { Button, buttonClasses } from "@/components/ui/button";
import { formatCount } from "@/lib/format/numbers";
import { BffRequestError } from "@/lib/queries/fetch-json";

import {
  clockMs,
  EXPORT_FORMAT_LABELS,
  type ExportFormat,
  exportUrl,
  formatDuration,
  newExportId,
  runExport,
  saveBlob,
} from "./export-download";
import { type ExportEstimate, secondsLeftAt, updateEstimate } from "./export-estimate";
import type { ListState } from "./list-state";

type ExportStatus =
  | { kind: "idle" }
  | {
      kind: "running";
      format: ExportFormat;
      rowsDone: number;
      total: number | null;
      estimate: ExportEstimate | null;
      now: number;
    }
  | { kind: "done"; rows: number | null; filename: string }
  | { kind: "cancelled" }
  | { kind: "error"; message: string };

const FORMATS: readonly ExportFormat[] = ["csv", "xlsx"];

function errorMessage(error: unknown): string {
  if (error instanceof BffRequestError) {
    // Our own bound on exports running at once (not the upstream's budget): the BFF's message says which and what to do.
    if (error.status === 429 && error.code === "too_many_running") return `Export not started: ${error.message}`;
    if (error.status === 429) {
      const wait =
        error.retryAfterSeconds !== null ? ` Try again in ${error.retryAfterSeconds} s.` : " Try again in a moment.";
      return `Export not started: the Fleet Fuel API's request budget is used up.${wait}`;
    }
    if (error.status === 403) return `Export not started: ${error.message}`;
    return `Export failed: ${error.message}`;
  }
  return "Export failed. Please try again.";
}

type ExportFilters = Pick<ListState, "range" | "from" | "to" | "status" | "search" | "tz" | "mirror" | "sort">;

/** Export of exactly the list's current filters, as CSV or Excel, with progress, a time estimate and Cancel. */
export function ExportControls({ filters }: { filters: ExportFilters }) {
  const { status, start, cancel, cancelRef } = useExport(filters);
  const isRunning = status.kind === "running";

  // `contents`: the buttons and what follows them are items of the toolbar's own wrapping row (transactions-table),
  // the status parts on lines of their own (basis-full) below the buttons. The buttons' line never holds anything
  // that comes and goes, so they stay where they are when an export starts and ends.
  return (
    <div className="contents">
      <div className="flex gap-2" role="group" aria-label="Export the filtered transactions">
        {FORMATS.map((format) => (
          <Button
            key={format}
            variant="secondary"
            disabled={isRunning}
            onClick={() => {
              void start(format);
            }}
          >
            Export {EXPORT_FORMAT_LABELS[format]}
          </Button>
        ))}
      </div>
      {status.kind === "running" ? (
        <ExportProgressPanel status={status} onCancel={cancel} cancelRef={cancelRef} />
      ) : null}
      <ExportOutcome status={status} />
    </div>
  );
}

/** How the last export ended: said politely (done, cancelled) or as an alert (failed). */
function ExportOutcome({ status }: { status: ExportStatus }) {
  return (
    <>
      <div aria-live="polite" className="flex basis-full justify-end text-right text-sm">
        {status.kind === "done" ? (
          <p className="text-slate-700 dark:text-slate-300">
            Exported {status.rows === null ? "all" : formatCount(status.rows)} {status.rows === 1 ? "row" : "rows"} to{" "}
            {status.filename}.
          </p>
        ) : null}
        {status.kind === "cancelled" ? <p className="text-slate-700 dark:text-slate-300">Export cancelled.</p> : null}
      </div>
      {status.kind === "error" ? (
        <div
          role="alert"
          className="ml-auto max-w-md basis-full rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100"
        >
          {status.message}
        </div>
      ) : null}
    </>
  );
}

/**
 * One export at a time: starting another cancels the running one, leaving the page cancels it (the BFF then stops
 * its upstream walk), focus goes to Cancel while it runs, and the time left counts down between progress reports.
 */
function useExport(filters: ExportFilters) {
  const [status, setStatus] = useState<ExportStatus>({ kind: "idle" });
  const controllerRef = useRef<AbortController | null>(null);
  const cancelRef = useRef<HTMLButtonElement | null>(null);
  const isRunning = status.kind === "running";

  useEffect(
    () => () => {
      controllerRef.current?.abort();
    },
    [],
  );
  useEffect(() => {
    if (!isRunning) return;
    cancelRef.current?.focus();
    const timer = setInterval(() => {
      setStatus((current) => (current.kind === "running" ? { ...current, now: Date.now() } : current));
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [isRunning]);

  const start = async (format: ExportFormat) => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    setStatus({ kind: "running", format, rowsDone: 0, total: null, estimate: null, now: clockMs() });
    try {
      const result = await runFilteredExport(filters, format, controller.signal, setStatus);
      if (controller.signal.aborted) return;
      saveBlob(result.blob, result.filename);
      setStatus({ kind: "done", rows: result.total, filename: result.filename });
    } catch (error) {
      if (controller.signal.aborted) {
        if (controllerRef.current === controller) setStatus({ kind: "cancelled" });
        return;
      }
      setStatus({ kind: "error", message: errorMessage(error) });
    } finally {
      if (controllerRef.current === controller) controllerRef.current = null;
    }
  };
  const cancel = () => {
    controllerRef.current?.abort();
  };
  return { status, start, cancel, cancelRef };
}

/** Runs one export of the filters, folding each progress report into the running status (and its time estimate). */
function runFilteredExport(
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

function ExportProgressPanel({
  status,
  onCancel,
  cancelRef,
}: {
  status: Extract<ExportStatus, { kind: "running" }>;
  onCancel: () => void;
  cancelRef: RefObject<HTMLButtonElement | null>;
}) {
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
