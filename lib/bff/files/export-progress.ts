import "server-only";

import type { ExportProgress } from "@/lib/model";

import { now } from "../platform/clock";

/**
 * Progress of running exports, for the page's progress bar: keyed by the session and an id the page chose. Entries
 * live a few minutes after their last change. In memory: the export and its progress are served by one instance.
 *
 * Bounded per session and per key, so one user cannot evict another's progress: a session (or key) over its share
 * loses its own oldest entry, and the store as a whole only ever evicts finished entries. Running entries are few
 * anyway (exports running at once are bounded per session and key, lib/bff/platform/running-limit.ts).
 */

const KEEP_MS = 10 * 60_000;
/** A running export untouched this long is gone (its browser left before it started); bounded in number too. */
const STALE_RUNNING_MS = 30 * 60_000;
/** Entries one session keeps (its running exports are at most 3). */
export const MAX_PER_SESSION = 10;
/** Entries one key keeps, every session of it together. */
export const MAX_PER_KEY = 30;
const MAX_ENTRIES = 5_000;
/** The budget part (`rate`) is read when the progress is asked for, not stored. */
type Progress = Omit<ExportProgress, "rate">;
type Entry = Progress & { touched: number; sid: string; key: string };
const holder = globalThis as typeof globalThis & { __ffdExports?: Map<string, Entry> };
const entries = (): Map<string, Entry> => (holder.__ffdExports ??= new Map<string, Entry>());

/** Starts tracking one export of session `sid` (of the key pair hashed `key`). */
export function trackExport(sid: string, key: string, exportId: string, expectedRows: number) {
  const id = `${sid}:${exportId}`;
  const stamp = () => new Date(now()).toISOString();
  const entry: Entry = {
    state: "running",
    rowsDone: 0,
    expectedRows,
    startedAt: stamp(),
    updatedAt: stamp(),
    message: null,
    touched: now(),
    sid,
    key,
  };
  sweep();
  entries().delete(id);
  makeRoom((e) => e.sid === sid, MAX_PER_SESSION);
  makeRoom((e) => e.key === key, MAX_PER_KEY);
  makeRoom(() => true, MAX_ENTRIES, { finishedOnly: true });
  // Full of running exports of others (only with thousands of keys at once): this one runs without a progress bar.
  if (entries().size < MAX_ENTRIES) entries().set(id, entry);
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
  const { touched: _touched, sid: _sid, key: _key, ...progress } = entry;
  return progress;
}

function sweep(): void {
  const t = now();
  for (const [id, entry] of entries()) {
    const idle = t - entry.touched;
    if ((entry.state !== "running" && idle > KEEP_MS) || idle > STALE_RUNNING_MS) entries().delete(id);
  }
}

/** Deletes the oldest entries among those `owned` until fewer than `limit` remain (finished ones first). */
function makeRoom(owned: (entry: Entry) => boolean, limit: number, options: { finishedOnly?: boolean } = {}): void {
  const mine = [...entries()].filter(([, entry]) => owned(entry));
  if (mine.length < limit) return;
  // Insertion order is start order: finished entries go first, then (unless only finished may go) the oldest running.
  const finished = mine.filter(([, entry]) => entry.state !== "running");
  const candidates = options.finishedOnly
    ? finished
    : [...finished, ...mine.filter(([, entry]) => entry.state === "running")];
  for (const [id] of candidates.slice(0, mine.length - limit + 1)) entries().delete(id);
}
