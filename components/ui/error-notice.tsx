import { Button } from "./button";

export interface ErrorNoticeProps {
  message: string;
  /** Offer a "Try again" button when another try may help. */
  onRetry?: () => void;
  isRetrying?: boolean;
}

/** A failure message for one part of a page, announced when it appears. */
export function ErrorNotice({ message, onRetry, isRetrying = false }: ErrorNoticeProps) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100"
    >
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
export function isRetryableStatus(status: number): boolean {
  return status !== 401 && status !== 403 && status !== 404;
}
