import "server-only";

import type { BudgetUse } from "@/lib/fleet-api";
import type { CatalogProgress } from "@/lib/model";

import { now } from "../platform/clock";

/**
 * Progress of the station-catalog walks (`GET /api/locations?all=1`), for the map page's progress bar while the BFF
 * walks the upstream's pages. Keyed like the catalog cache (the key pair's hash), because one walk serves every tab
 * and session of that key (single flight). In memory, like the export progress: the walk and its progress are served
 * by one instance. Entries are forgotten a while after their walk ends.
 */

const KEEP_MS = 10 * 60_000;
const MAX_ENTRIES = 1_000;
type Entry = Omit<CatalogProgress, "budgetWait"> & { touched: number };
const holder = globalThis as typeof globalThis & { __ffdCatalogWalks?: Map<string, Entry> };
const entries = (): Map<string, Entry> => (holder.__ffdCatalogWalks ??= new Map<string, Entry>());

/** Starts tracking a walk for `key`; the returned callbacks feed the walk's `onProgress` and its end. */
export function trackCatalogWalk(key: string) {
  const stamp = () => new Date(now()).toISOString();
  const entry: Entry = {
    state: "loading",
    pagesDone: 0,
    pages: null,
    total: null,
    loaded: 0,
    startedAt: stamp(),
    updatedAt: stamp(),
    touched: now(),
  };
  sweep();
  entries().set(key, entry);
  const touch = () => {
    entry.updatedAt = stamp();
    entry.touched = now();
  };
  return {
    page(progress: { pagesDone: number; pages: number; total: number; delivered: number }) {
      entry.pagesDone = progress.pagesDone;
      entry.pages = progress.pages;
      entry.total = progress.total;
      entry.loaded = progress.delivered;
      touch();
    },
    finish(state: "done" | "failed") {
      entry.state = state;
      touch();
    },
  };
}

/** Whether a walk of this key is running (then its progress is worth a look at the key's budget). */
export function isCatalogLoading(key: string): boolean {
  return entries().get(key)?.state === "loading";
}

/**
 * The latest walk of this key, or an idle answer when none ran recently. With `budget` (the key's budget use, read
 * without a request, and the exports of the key running): a loading walk whose key has a full window and bulk
 * requests queued is waiting for the budget, and the answer says why. The catalog walk is one of those bulk requests
 * (or the next to join them), so the wait is the walk's.
 */
export function catalogProgress(
  key: string,
  budget?: { use: BudgetUse; windowMs: number; exportsRunning: number },
): CatalogProgress {
  const entry = entries().get(key);
  if (!entry)
    return {
      state: "idle",
      pagesDone: 0,
      pages: null,
      total: null,
      loaded: 0,
      startedAt: null,
      updatedAt: null,
      budgetWait: null,
    };
  const { touched: _touched, ...progress } = entry;
  const isWaiting =
    budget !== undefined &&
    entry.state === "loading" &&
    budget.use.waiting.bulk > 0 &&
    (budget.use.sent >= budget.use.budget || budget.use.pausedForMs > 0);
  return {
    ...progress,
    budgetWait: isWaiting
      ? {
          reason: budget.exportsRunning > 0 ? "export" : "other",
          budget: budget.use.budget,
          windowSeconds: Math.round(budget.windowMs / 1000),
        }
      : null,
  };
}

function sweep(): void {
  const t = now();
  for (const [key, entry] of entries())
    if (entry.state !== "loading" && t - entry.touched > KEEP_MS) entries().delete(key);
  while (entries().size >= MAX_ENTRIES) {
    const oldest = entries().keys().next();
    if (oldest.done) break;
    entries().delete(oldest.value);
  }
}
