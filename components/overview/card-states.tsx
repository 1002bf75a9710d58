import type { BffRequestError } from "@/lib/queries/fetch-json";
import { QueryErrorNotice } from "@/components/ui/error-notice";
import { Skeleton } from "@/components/ui/skeleton";

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
