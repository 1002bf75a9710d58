import "server-only";
import type { ExportProgress } from "@/lib/model";
import { now } from "./clock";

/**
 * Progress of running exports, for the page's progress bar: keyed by the session and an id the page chose. Entries
 * live a few minutes after their last change. In memory: the export and its progress are served by one instance.
 */

const KEEP_MS = 10 * 60_000;
/** A running export untouched this long is gone (its browser left before it started); bounded in number too. */
const STALE_RUNNING_MS = 30 * 60_000;
const MAX_ENTRIES = 1_000;
/** The budget part (`rate`) is read when the progress is asked for, not stored. */
type Progress = Omit<ExportProgress, "rate">;
type Entry = Progress & { touched: number };
const holder = globalThis as typeof globalThis & { __ffdExports?: Map<string, Entry> };
const entries = (): Map<string, Entry> => (holder.__ffdExports ??= new Map<string, Entry>());

export function trackExport(sid: string, exportId: string, expectedRows: number) {
  const key = `${sid}:${exportId}`;
  const stamp = () => new Date(now()).toISOString();
  const entry: Entry = { state: "running", rowsDone: 0, expectedRows, startedAt: stamp(), updatedAt: stamp(), message: null, touched: now() };
  sweep();
  entries().set(key, entry);
  const touch = () => {
    entry.updatedAt = stamp();
    entry.touched = now();
  };
  return {
    row(rowsDone: number) {
      entry.rowsDone = rowsDone;
      if (rowsDone % 200 === 0) touch();
    },
    finish(state: "done" | "failed" | "cancelled", message: string | null = null) {
      if (entry.state !== "running") return;
      entry.state = state;
      entry.message = message;
      touch();
    },
  };
}

export function exportProgress(sid: string, exportId: string): Progress | undefined {
  const entry = entries().get(`${sid}:${exportId}`);
  if (!entry) return undefined;
  const { touched: _touched, ...progress } = entry;
  return progress;
}

function sweep(): void {
  const t = now();
  for (const [key, entry] of entries()) {
    const idle = t - entry.touched;
    if ((entry.state !== "running" && idle > KEEP_MS) || idle > STALE_RUNNING_MS) entries().delete(key);
  }
  while (entries().size >= MAX_ENTRIES) {
    const oldest = entries().keys().next();
    if (oldest.done) break;
    entries().delete(oldest.value);
  }
}
