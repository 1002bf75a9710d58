import type { TransactionStatus } from "@/lib/model";

const LABELS: Readonly<Record<TransactionStatus, string>> = {
  completed: "Completed",
  pending: "Pending",
  failed: "Failed",
};

// Each pair is at least 7:1 (text on its tint), light and dark.
const CLASSES: Readonly<Record<TransactionStatus, string>> = {
  completed: "bg-green-100 text-green-900 dark:bg-green-900/50 dark:text-green-100",
  pending: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
  failed: "bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100",
};

/** A transaction's status in words (and a shape), never colour alone. */
export function TransactionStatusBadge({ status }: { status: TransactionStatus }) {
  return (
    <span
      data-testid="status-badge"
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${CLASSES[status]}`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="size-3"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
      >
        {status === "completed" ? <path d="m3 8.5 3.2 3L13 4.5" strokeLinecap="round" strokeLinejoin="round" /> : null}
        {status === "pending" ? <path d="M8 4v4l2.5 2" strokeLinecap="round" strokeLinejoin="round" /> : null}
        {status === "failed" ? <path d="m4.5 4.5 7 7m0-7-7 7" strokeLinecap="round" /> : null}
      </svg>
      {LABELS[status]}
    </span>
  );
}
