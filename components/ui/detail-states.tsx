import type { ReactNode } from "react";
import type { BffRequestError } from "@/lib/queries/fetch-json";
import { QueryErrorNotice } from "./error-notice";
import { PageHeader } from "./page-header";
import { Skeleton } from "./skeleton";

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
