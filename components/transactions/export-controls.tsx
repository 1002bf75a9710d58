"use client";

import { lazy, Suspense, useEffect, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { formatCount } from "@/lib/format/numbers";
import type { ExportFormat } from "@/lib/model";
import { BffRequestError } from "@/lib/queries/fetch-json";

import type { ExportEstimate } from "./export-estimate";
import type { ListState } from "./list-state";

/**
 * What runs an export and shows its progress (export-run.tsx, export-download.ts, export-estimate.ts) is a chunk loaded
 * at the first click on Export, not with the list's page (issue 26: ≤ 200 kB of JavaScript per page).
 */
const loadExportRun = () => import("./export-run");
const ExportProgressPanel = lazy(() => loadExportRun().then((m) => ({ default: m.ExportProgressPanel })));

/** The buttons' words (export-download.ts says the same for the file's progress). */
const FORMAT_LABELS: Readonly<Record<ExportFormat, string>> = { csv: "CSV", xlsx: "Excel" };

export type ExportStatus =
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

export type ExportFilters = Pick<ListState, "range" | "from" | "to" | "status" | "search" | "tz" | "mirror" | "sort">;

/** Export of exactly the list's current filters, as CSV or Excel, with progress, a time estimate and Cancel. */
export function ExportControls({ filters }: { filters: ExportFilters }) {
  const { status, start, cancel } = useExport(filters);
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
            Export {FORMAT_LABELS[format]}
          </Button>
        ))}
      </div>
      {status.kind === "running" ? (
        // The chunk is already there (start loaded it before the export began): the fallback is never seen.
        <Suspense fallback={null}>
          <ExportProgressPanel status={status} onCancel={cancel} />
        </Suspense>
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
 * its upstream walk), focus goes to Cancel while it runs (ExportProgressPanel), and the time left counts down between
 * progress reports.
 */
function useExport(filters: ExportFilters) {
  const [status, setStatus] = useState<ExportStatus>({ kind: "idle" });
  const controllerRef = useRef<AbortController | null>(null);
  const isRunning = status.kind === "running";

  useEffect(
    () => () => {
      controllerRef.current?.abort();
    },
    [],
  );
  useEffect(() => {
    if (!isRunning) return;
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
    // A function, not the property: TypeScript would keep the first check's answer across the awaits.
    const isAborted = () => controller.signal.aborted;
    try {
      const run = await loadExportRun();
      // Another click started another export while the chunk loaded: that one goes on.
      if (isAborted()) return;
      setStatus({ kind: "running", format, rowsDone: 0, total: null, estimate: null, now: run.clockMs() });
      const result = await run.runFilteredExport(filters, format, controller.signal, setStatus);
      if (isAborted()) return;
      run.saveBlob(result.blob, result.filename);
      setStatus({ kind: "done", rows: result.total, filename: result.filename });
    } catch (error) {
      if (isAborted()) {
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
  return { status, start, cancel };
}
