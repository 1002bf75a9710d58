import type { BffRequestError } from "@/lib/queries/fetch-json";

import { Button } from "./button";

/** error: something went wrong here; warning: a pause or an outage that will pass; info: how things are (a missing scope). */
type NoticeTone = "error" | "warning" | "info";

const TONE_CLASSES: Record<NoticeTone, string> = {
  error: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100",
  warning: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-50",
  info: "border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-700 dark:bg-sky-950/60 dark:text-sky-50",
};

export interface ErrorNoticeProps {
  message: string;
  /** A short bold first line, e.g. "Not available with this API key". */
  title?: string;
  tone?: NoticeTone;
  /** Offer a "Try again" button when another try may help. */
  onRetry?: () => void;
  isRetrying?: boolean;
}

/** A failure message for one part of a page, announced when it appears. */
export function ErrorNotice({ message, title, tone = "error", onRetry, isRetrying = false }: ErrorNoticeProps) {
  return (
    <div role="alert" data-tone={tone} className={`rounded-md border p-3 text-sm ${TONE_CLASSES[tone]}`}>
      {title === undefined ? null : <p className="font-semibold">{title}</p>}
      <p>{message}</p>
      {onRetry === undefined ? null : (
        <Button variant="secondary" className="mt-3" onClick={onRetry} disabled={isRetrying}>
          {isRetrying ? "Trying again…" : "Try again"}
        </Button>
      )}
    </div>
  );
}

/** A missing scope, a missing item or an ended session will not change by asking again; everything else might. */
function isRetryableStatus(status: number): boolean {
  return status !== 401 && status !== 403 && status !== 404;
}

/** No answer, or the upstream is down or too slow: it will pass, so the tone is calm and a retry is offered. */
const OUTAGE_STATUSES: ReadonlySet<number> = new Set([0, 502, 503, 504]);

export interface QueryErrorNoticeProps {
  error: BffRequestError;
  /** What this part shows ("transactions"), so a missing scope can say what the key cannot see in every profile. */
  subject?: string;
  onRetry: () => void;
  isRetrying: boolean;
}

/**
 * What one part of a page says when its data failed, by kind: a rate limit (the page-wide banner counts down and
 * retries, so no button here), a missing scope (which one, and who can grant it), an outage (calm, with "Try again"),
 * anything else (the BFF's own sentence).
 */
export function QueryErrorNotice({ error, subject, onRetry, isRetrying }: QueryErrorNoticeProps) {
  if (error.status === 429) {
    return (
      <ErrorNotice
        tone="warning"
        title="Paused by the request limit"
        message="The Fleet Fuel API asked us to wait. This part reloads by itself when the wait shown above ends."
      />
    );
  }
  if (error.status === 403 && error.code === "scope_denied") {
    // The upstream may name the scope only as "read" (primary shape), so the title says what is out of reach.
    return (
      <ErrorNotice
        tone="info"
        title={subject === undefined ? "Not available with this API key" : `Your API key cannot see ${subject}`}
        message={error.message}
      />
    );
  }
  if (OUTAGE_STATUSES.has(error.status)) {
    return (
      <ErrorNotice
        tone="warning"
        title="Temporarily unavailable"
        message={error.message}
        onRetry={onRetry}
        isRetrying={isRetrying}
      />
    );
  }
  return <ErrorNotice message={error.message} {...(isRetryableStatus(error.status) ? { onRetry, isRetrying } : {})} />;
}
