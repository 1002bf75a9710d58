import type { ExportFormat, ExportProgress, ExportRate } from "@/lib/model";
import { BffRequestError, fetchJson, requestBff } from "@/lib/queries/fetch-json";
import { writeTransactionFilters } from "@/lib/queries/transaction-filters";

export type { ExportFormat };
import { type ListState, resolveRange } from "./list-state";

/**
 * Export of the transactions list: the file is streamed by `GET /api/transactions/export` while
 * `GET /api/transactions/export/progress` says how many rows are done. Pure helpers plus one runner, so the
 * component only holds the UI state.
 */

export const EXPORT_FORMAT_LABELS: Readonly<Record<ExportFormat, string>> = { csv: "CSV", xlsx: "Excel" };

export interface ExportTick {
  rowsDone: number;
  /** From `X-Export-Total` (or the progress endpoint); null until known. */
  total: number | null;
  /** The request budget that bounds the export (from the progress endpoint); null until the first report. */
  rate: ExportRate | null;
}

export interface ExportResult {
  blob: Blob;
  filename: string;
  total: number | null;
}

const POLL_MS = 1000;

/** An id the progress endpoint accepts (8–64 of `[A-Za-z0-9-]`); `randomUUID` needs a secure context, hence the fallback. */
export function newExportId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The export URL for the list's current filters and order, written as the list's own request is (a relative date
 * preset is resolved now, in the list's zone, as the table does).
 */
export function exportUrl(
  state: Pick<ListState, "range" | "from" | "to" | "status" | "search" | "tz" | "mirror" | "sort">,
  format: ExportFormat,
  exportId: string,
  now: Date = new Date(),
): string {
  const { from, to } = resolveRange(state, now);
  const params = new URLSearchParams({ format });
  writeTransactionFilters(
    params,
    { from, to, tz: state.tz, status: state.status, search: state.search, mirror: state.mirror },
    state.sort,
  );
  params.set("exportId", exportId);
  return `/api/transactions/export?${params.toString()}`;
}

/** The file name from `Content-Disposition`: `filename*` (RFC 5987) first, then `filename`, else a fallback. */
function filenameFromDisposition(header: string | null, fallback: string): string {
  if (header === null) return fallback;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star?.[1] !== undefined) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // Malformed percent-encoding: try the plain parameter.
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header) ?? /filename\s*=\s*([^;]+)/i.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, "$1").trim();
  return name !== undefined && name !== "" ? name : fallback;
}

/** Wall-clock milliseconds, for event handlers (kept out of render). */
export function clockMs(): number {
  return Date.now();
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes < 60) return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

const STREAM_FAILED_MESSAGE =
  "The export stopped before the file was complete (the Fleet Fuel API stopped answering). Please try again.";

/**
 * Runs one export: fetches the file (errors before the stream starts come back as `BffRequestError`), reads the body
 * into a Blob while polling the progress endpoint, and reports rows done. Aborting `signal` cancels the download,
 * which makes the BFF stop its upstream walk; the promise then rejects with the AbortError.
 */
export async function runExport(
  url: string,
  exportId: string,
  signal: AbortSignal,
  onTick: (tick: ExportTick) => void,
  fallbackName: string,
): Promise<ExportResult> {
  let total: number | null = null;
  let rowsDone = 0;
  let rate: ExportRate | null = null;
  // Stops the polling the moment the download ends, so a small export is not held back by a pending tick.
  const stopPolling = new AbortController();
  const pollSignal = AbortSignal.any([signal, stopPolling.signal]);
  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      pollSignal.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  const stopped = () => pollSignal.aborted;
  const poll = async () => {
    while (!stopped()) {
      await sleep();
      if (stopped()) return;
      try {
        const progress = await fetchJson<ExportProgress>(
          `/api/transactions/export/progress?exportId=${encodeURIComponent(exportId)}`,
          { signal: pollSignal },
        );
        if (stopped()) return;
        rowsDone = Math.max(rowsDone, progress.rowsDone);
        total ??= progress.expectedRows;
        rate = progress.rate;
        onTick({ rowsDone, total, rate });
      } catch {
        // A hiccup: the download itself decides success.
      }
    }
  };

  try {
    const response = await requestBff(url, { signal, headers: { Accept: "*/*" } });
    // Polling starts once the download has answered: the BFF registers the export's progress before it answers
    // (after page 1, which may take long when the upstream is slow or the budget full), so no poll can come too
    // early and be told "no such export" (404). Until then there is nothing to show anyway.
    void poll();
    const header = Number(response.headers.get("X-Export-Total"));
    if (response.headers.has("X-Export-Total") && Number.isFinite(header)) total = header;
    onTick({ rowsDone, total, rate });
    const filename = filenameFromDisposition(response.headers.get("Content-Disposition"), fallbackName);
    const type = response.headers.get("Content-Type") ?? "application/octet-stream";
    if (response.body === null) return { blob: await response.blob(), filename, total };
    const reader = response.body.getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
    } catch (error) {
      if (signal.aborted) throw error;
      throw new BffRequestError(0, "export_stream_failed", STREAM_FAILED_MESSAGE);
    }
    return { blob: new Blob(chunks, { type }), filename, total };
  } finally {
    stopPolling.abort();
  }
}

/** Hands the file to the browser's downloads (object URL and an `<a download>` click). */
export function saveBlob(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = href;
  link.download = filename;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => {
    URL.revokeObjectURL(href);
  }, 10_000);
}
