import type { ReactNode } from "react";
import type { TransactionStatus } from "@/lib/model";

/**
 * Statuses said in words and a shape as well as colour (never colour alone). Each tint pair is at least 7:1 (text on
 * its tint), light and dark.
 */

type Tone = "green" | "amber" | "red" | "slate";
type Shape = "check" | "clock" | "cross" | "dash";

const TONE_CLASSES: Readonly<Record<Tone, string>> = {
  green: "bg-green-100 text-green-900 dark:bg-green-900/50 dark:text-green-100",
  amber: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
  red: "bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100",
  slate: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
};

const SHAPES: Readonly<Record<Shape, ReactNode>> = {
  check: <path d="m3 8.5 3.2 3L13 4.5" strokeLinecap="round" strokeLinejoin="round" />,
  clock: <path d="M8 4v4l2.5 2" strokeLinecap="round" strokeLinejoin="round" />,
  cross: <path d="m4.5 4.5 7 7m0-7-7 7" strokeLinecap="round" />,
  dash: <path d="M4 8h8" strokeLinecap="round" />,
};

/** small: in a table row; regular: beside a heading. */
const SIZE_CLASSES = {
  small: { badge: "gap-1.5 px-2 text-xs whitespace-nowrap", icon: "size-3" },
  regular: { badge: "gap-1.5 px-2.5 text-sm", icon: "size-3.5" },
} as const;

function Badge(props: {
  tone: Tone;
  shape: Shape;
  size: keyof typeof SIZE_CLASSES;
  testId?: string;
  children: ReactNode;
}) {
  const size = SIZE_CLASSES[props.size];
  return (
    <span
      data-testid={props.testId}
      className={`inline-flex items-center rounded-full py-0.5 font-medium ${size.badge} ${TONE_CLASSES[props.tone]}`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className={size.icon}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
      >
        {SHAPES[props.shape]}
      </svg>
      {props.children}
    </span>
  );
}

const TRANSACTION_STATUS: Readonly<Record<TransactionStatus, { label: string; tone: Tone; shape: Shape }>> = {
  completed: { label: "Completed", tone: "green", shape: "check" },
  pending: { label: "Pending", tone: "amber", shape: "clock" },
  failed: { label: "Failed", tone: "red", shape: "cross" },
};

/** A transaction's status: Completed, Pending or Failed. */
export function TransactionStatusBadge({ status }: { status: TransactionStatus }) {
  const { label, tone, shape } = TRANSACTION_STATUS[status];
  return (
    <Badge tone={tone} shape={shape} size="small" testId="status-badge">
      {label}
    </Badge>
  );
}

/** An account's status: Active or Inactive. */
export function AccountStatusBadge({ isActive }: { isActive: boolean }) {
  return isActive ? (
    <Badge tone="green" shape="check" size="regular">
      Active
    </Badge>
  ) : (
    <Badge tone="slate" shape="dash" size="regular">
      Inactive
    </Badge>
  );
}
