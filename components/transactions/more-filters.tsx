"use client";

import { lazy, Suspense, useState } from "react";

import { MIRROR_FILTER_NAMES, type MirrorFilterValues } from "@/lib/queries/transaction-filters";

export interface MoreFiltersProps {
  values: MirrorFilterValues;
  onChange: (patch: Partial<MirrorFilterValues>, mode?: "push" | "replace") => void;
}

/**
 * The fields, a chunk loaded at the first opening (or with the page when a link sets one of them: then the server
 * renders them too). React's own lazy, not next/dynamic: the page has no other dynamic import, and next/dynamic's
 * runtime would add back about what this moves out (measured on the build, issue 26).
 */
const MoreFilterFields = lazy(() => import("./more-filter-fields").then((m) => ({ default: m.MoreFilterFields })));

const LOADING_FIELDS = <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Loading the filters…</p>;

/**
 * The filters only the local copy answers, behind "More filters" (open while any is set): selects fed by the facets
 * and amount and gallon ranges whose typos are said under the field (the URL takes only what the BFF accepts).
 */
export function MoreFilters({ values, onChange }: MoreFiltersProps) {
  const activeCount = MIRROR_FILTER_NAMES.filter((name) => values[name] !== null).length;
  const [isOpen, setIsOpen] = useState(activeCount > 0);
  // The fields, their thousands of choices and the facets' request wait for the first opening: drawn closed, the
  // station list alone made ~2,000 nodes in the page's first long task on a phone (issue 26, mobile TBT). Once opened
  // they stay, so closing keeps what was typed.
  const [wasOpened, setWasOpened] = useState(isOpen);
  return (
    <details
      open={isOpen}
      onToggle={(event) => {
        const open = event.currentTarget.open;
        setIsOpen(open);
        if (open) setWasOpened(true);
      }}
      className="basis-full"
      data-testid="more-filters"
    >
      <summary className="w-fit cursor-pointer rounded text-sm font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 dark:text-slate-200 dark:focus-visible:outline-brand-400">
        More filters{activeCount === 0 ? "" : ` (${String(activeCount)} on)`}
      </summary>
      {wasOpened ? (
        <Suspense fallback={LOADING_FIELDS}>
          <MoreFilterFields values={values} onChange={onChange} />
        </Suspense>
      ) : null}
    </details>
  );
}
