import type { ReactNode } from "react";
import type { BffRequestError } from "@/lib/queries/fetch-json";
import { QueryErrorNotice } from "./error-notice";
import { PageHeader } from "./page-header";
import { Skeleton } from "./skeleton";

/**
 * The loading and failed states of a part of a page that shows one query: a card (overview, station detail) or a
 * whole detail page. Tables draw their own loading rows (DataTable).
 */

/** A card's loading placeholder: grey rows for the eye, one sentence for screen readers. */
export function CardSkeleton({
  label,
  rows = 5,
  className = "h-4",
}: {
  label: string;
  rows?: number;
  className?: string;
}) {
  return (
    <div aria-busy="true">
      <p className="sr-only">{label}</p>
      <div className="space-y-3">
        {Array.from({ length: rows }, (_, index) => (
          <Skeleton key={index} className={`${className} ${index % 2 === 0 ? "w-full" : "w-5/6"}`} />
        ))}
      </div>
    </div>
  );
}

/** A card's failure, by kind (rate limit, missing scope, outage, other): see QueryErrorNotice. */
export function CardError({
  error,
  subject,
  onRetry,
  isRetrying,
}: {
  error: BffRequestError;
  subject: string;
  onRetry: () => void;
  isRetrying: boolean;
}) {
  return <QueryErrorNotice error={error} subject={subject} onRetry={onRetry} isRetrying={isRetrying} />;
}

/** A detail page while its one query loads: the way back, the title, two placeholder blocks. */
export function DetailLoading({ title, label, backLink }: { title: string; label: string; backLink: ReactNode }) {
  return (
    <div aria-busy="true" className="space-y-4">
      <p className="mb-2">{backLink}</p>
      <PageHeader title={title} />
      <p className="sr-only">{label}</p>
      <Skeleton className="h-40 w-full" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}

/** A detail page whose query failed (other than 404): the notice by kind (see QueryErrorNotice), then the way back. */
export function DetailError(props: {
  title: string;
  subject: string;
  error: BffRequestError;
  onRetry: () => void;
  isRetrying: boolean;
  backLink: ReactNode;
}) {
  return (
    <div className="space-y-4">
      <PageHeader title={props.title} />
      <QueryErrorNotice
        error={props.error}
        subject={props.subject}
        onRetry={props.onRetry}
        isRetrying={props.isRetrying}
      />
      {props.backLink}
    </div>
  );
}
