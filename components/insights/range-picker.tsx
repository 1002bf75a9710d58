"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useId, useState } from "react";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { LinkProblems } from "@/components/ui/link-problems";
import { useClock } from "@/components/ui/use-clock";
import { useUrlView } from "@/components/ui/use-url-view";
import { recentQuarters } from "@/lib/model/insights";

import {
  insightRangeLabel,
  insightRangeParams,
  insightRangeProblems,
  type InsightRangeView,
  parseInsightRange,
  withInsightRange,
} from "./range-state";

const NO_RESETS: readonly string[] = [];

/**
 * The period every insight page shows (issue 16): a quarter (this, last, any of the last 8), a range of dates, or
 * the default last 30 days, kept in the URL so a report can be shared and Back goes to the previous period. Dates are
 * each purchase's own local date (the pages say so). A new period drops the parameters named in `resets`.
 */
export function useInsightRange(defaultDays = 30, resets: readonly string[] = NO_RESETS) {
  const searchParams = useSearchParams();
  const serialize = useCallback(
    (view: InsightRangeView) => withInsightRange(searchParams, view, resets),
    [searchParams, resets],
  );
  const { view, update } = useUrlView(parseInsightRange, serialize);
  return {
    view,
    /** What of the link's period was not used, in sentences (the picker shows them). */
    problems: insightRangeProblems(searchParams, defaultDays),
    /** The parameters for the API route (quarter | from & to; none for the default). */
    params: insightRangeParams(view),
    label: insightRangeLabel(view, defaultDays),
    defaultDays,
    set: (next: InsightRangeView) => {
      update(() => next, "push");
    },
  };
}

export type InsightRange = ReturnType<typeof useInsightRange>;

const CUSTOM = "custom";
const DEFAULT = "default";

/** Today's date in the reader's zone; null on the server and while hydrating (the quarters appear after). */
function useToday(): string | null {
  const now = useClock(60_000);
  if (now === 0) return null;
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${String(d.getFullYear())}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The period select (and dates); `linkProblems`: the page's other parameters that a link got wrong, shown with the period's. */
export function InsightRangePicker({
  range,
  linkProblems = [],
}: {
  range: InsightRange;
  linkProblems?: readonly string[];
}) {
  const today = useToday();
  const quarters = today === null ? [] : recentQuarters(today, 8);
  const { view } = range;
  const [custom, setCustom] = useState(view.kind === "range");
  const selected = view.kind === "quarter" ? view.quarter : custom || view.kind === "range" ? CUSTOM : DEFAULT;
  // A quarter from a link older than the eight offered stays selectable.
  const options =
    view.kind === "quarter" && !quarters.some((q) => q.id === view.quarter)
      ? [{ id: view.quarter, label: insightRangeLabel(view) }, ...quarters.map((q) => ({ id: q.id, label: q.label }))]
      : quarters.map((q, i) => ({
          id: q.id,
          label: i === 0 ? `${q.label} (this quarter)` : i === 1 ? `${q.label} (last quarter)` : q.label,
        }));
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      aria-label="Period"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <LinkProblems problems={[...range.problems, ...linkProblems]} />
      <Field label="Period" className="w-full sm:w-60">
        {(control) => (
          <select
            {...control}
            value={selected}
            onChange={(event) => {
              const value = event.target.value;
              if (value === CUSTOM) {
                setCustom(true);
                return;
              }
              setCustom(false);
              range.set(value === DEFAULT ? { kind: "default" } : { kind: "quarter", quarter: value });
            }}
          >
            <option value={DEFAULT}>Last {range.defaultDays} days</option>
            {options.map((q) => (
              <option key={q.id} value={q.id}>
                {q.label}
              </option>
            ))}
            <option value={CUSTOM}>Dates…</option>
          </select>
        )}
      </Field>
      {selected === CUSTOM ? (
        <CustomDates
          key={view.kind === "range" ? `${view.from}/${view.to}` : "new"}
          initial={view.kind === "range" ? view : null}
          onApply={(from, to) => {
            range.set({ kind: "range", from, to });
          }}
        />
      ) : null}
    </form>
  );
}

function CustomDates({
  initial,
  onApply,
}: {
  initial: { from: string; to: string } | null;
  onApply: (from: string, to: string) => void;
}) {
  const [from, setFrom] = useState(initial?.from ?? "");
  const [to, setTo] = useState(initial?.to ?? "");
  const hintId = useId();
  const error =
    from !== "" && to !== "" && from > to ? `The start (${from}) is after the end (${to}): swap them.` : null;
  const ready = from !== "" && to !== "" && error === null;
  return (
    <>
      <Field label="From" className="w-full sm:w-44" describedBy={hintId}>
        {(control) => (
          <input
            {...control}
            type="date"
            value={from}
            onChange={(event) => {
              setFrom(event.target.value);
            }}
          />
        )}
      </Field>
      <Field label="To" className="w-full sm:w-44" describedBy={hintId} error={error}>
        {(control) => (
          <input
            {...control}
            type="date"
            value={to}
            onChange={(event) => {
              setTo(event.target.value);
            }}
          />
        )}
      </Field>
      <Button
        type="submit"
        disabled={!ready}
        onClick={() => {
          if (ready) onApply(from, to);
        }}
      >
        Show
      </Button>
      <p id={hintId} className="basis-full text-xs text-slate-600 dark:text-slate-400">
        Both days included; each purchase counts on its own local date.
      </p>
    </>
  );
}
