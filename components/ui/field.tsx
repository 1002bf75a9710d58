import { type ReactNode, useId } from "react";

/** The look of every text field and select of the filter bars (transactions, stations). */
export const FIELD_CLASSES =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const LABEL_CLASSES = "block text-sm font-medium text-slate-800 dark:text-slate-200";

/** What a Field hands its control: the id its label points at, and the descriptions a screen reader reads with it. */
interface FieldControlProps {
  id: string;
  className: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

/**
 * The control's `aria-describedby`: its own hint, then its error, then descriptions shared with other fields (a hint
 * under a whole filter bar). Undefined when there is none, so no empty attribute is rendered.
 */
export function describedByIds(ids: readonly (string | null | undefined)[]): string | undefined {
  const present = ids.filter((id): id is string => id !== null && id !== undefined && id !== "");
  return present.length === 0 ? undefined : present.join(" ");
}

export interface FieldProps {
  label: ReactNode;
  /** A line under the control that helps fill it in. */
  hint?: ReactNode;
  /** What is wrong with the value; marks the control invalid. Null or absent when nothing is. */
  error?: ReactNode;
  /** A fixed id for the control (e.g. one a test or another element points at); a generated one otherwise. */
  id?: string;
  /** Ids of descriptions outside the field that apply to it too. */
  describedBy?: string;
  /** The wrapper's classes (its width in a filter bar). */
  className?: string;
  /** The control's classes; FIELD_CLASSES by default. */
  controlClassName?: string;
  /** Renders the control (a select, an input, an input with a button beside it) with the props given. */
  children: (control: FieldControlProps) => ReactNode;
}

/** A label, its control, an optional hint and an optional error, their ids wired together for assistive technology. */
export function Field({ label, hint, error, id, describedBy, className, controlClassName, children }: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const hasHint = hint !== undefined && hint !== null;
  const hasError = error !== undefined && error !== null && error !== false;
  const describedById = describedByIds([hasHint ? hintId : null, hasError ? errorId : null, describedBy]);
  const control: FieldControlProps = {
    id: controlId,
    className: controlClassName ?? FIELD_CLASSES,
    ...(describedById === undefined ? {} : { "aria-describedby": describedById }),
    ...(hasError ? { "aria-invalid": true as const } : {}),
  };
  return (
    <div className={className}>
      <label htmlFor={controlId} className={LABEL_CLASSES}>
        {label}
      </label>
      {children(control)}
      {hasHint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {hasError ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
