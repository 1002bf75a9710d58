import { describeRecentAge, describeTimeLeft, formatMonthYear } from "@/lib/format/ages";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";

/**
 * The shell's one quiet line about the local copy of the customer's transactions (`GET /api/sync`). `line` is what
 * is shown, ages and all; `announce` is what a screen reader hears (aria-live): it changes only when the state does,
 * not every second or every percent. Null when there is no local copy for this session (`off`): nothing to say.
 */
export interface SyncStatusText {
  line: string;
  announce: string;
  tone: "quiet" | "error";
}

export function syncStatusText(status: SyncStatusReply, now: number): SyncStatusText | null {
  switch (status.state) {
    case "off":
      return null;
    case "starting":
      return {
        line: "Making a local copy of your transactions…",
        announce: "Making a local copy of your transactions.",
        tone: "quiet",
      };
    case "ready":
      return {
        line:
          status.lastHeadSync === null || now === 0
            ? "Up to date"
            : `Up to date · ${describeRecentAge(status.lastHeadSync, now)}`,
        announce: "Your local copy of your transactions is up to date.",
        tone: "quiet",
      };
    case "backfilling":
      return { line: backfillLine(status), announce: "Loading the history of your transactions.", tone: "quiet" };
    case "error": {
      // The BFF's sentence says what failed and what happens next; the line adds nothing to it.
      const why = status.error ?? "The local copy of your transactions could not be updated.";
      return { line: why, announce: why, tone: "error" };
    }
  }
}

/**
 * "Loading history: loaded back to Mar 2025 so far · 64 % · about 3 min", each part only when known. The month is how
 * far the copy reaches now, not the target (which "back to" alone read as).
 */
function backfillLine(status: SyncStatusReply): string {
  const parts = [
    status.coverage.from === null
      ? "Loading history"
      : `Loading history: loaded back to ${formatMonthYear(status.coverage.from)} so far`,
  ];
  const { done, expected, timeLeftMs } = status.backfill;
  if (expected !== null && expected > 0) parts.push(`${String(Math.min(99, Math.floor((done / expected) * 100)))} %`);
  if (timeLeftMs !== null) parts.push(describeTimeLeft(timeLeftMs));
  return parts.join(" · ");
}

/**
 * Whole seconds until "Sync now" may start another head sync (`nextHeadSync`: at most one every 30 s per customer), 0
 * when it may now or when the time is not known yet (`now` 0 while hydrating).
 */
export function secondsUntilSyncNow(status: SyncStatusReply, now: number): number {
  if (status.nextHeadSync === null || now === 0) return 0;
  return Math.max(0, Math.ceil((Date.parse(status.nextHeadSync) - now) / 1000));
}
