import type { ReactNode } from "react";

/** One row of a DefinitionList: a label and its value (null or "" when the value is missing). */
export type DefinitionItem = readonly [label: string, value: ReactNode];

/** Label/value pairs; a missing value reads "Not provided" rather than leaving a gap. */
export function DefinitionList({ items }: { items: readonly DefinitionItem[] }) {
  return (
    // The value column may shrink below its longest word (minmax(0, …)) and such a word wraps anywhere: a long
    // e-mail address or id must wrap on a 375 px phone, not push the page sideways.
    <dl className="grid grid-cols-[minmax(7rem,auto)_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
          <dd className="min-w-0 wrap-anywhere text-slate-900 dark:text-slate-100">
            {value === null || value === "" ? (
              <span className="text-slate-600 dark:text-slate-400">Not provided</span>
            ) : (
              value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
