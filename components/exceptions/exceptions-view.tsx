"use client";

import type { Route } from "next";
import { usePathname, useRouter, useSearchParams } from "next/navigation";

import { CoverageNote } from "@/components/insights/coverage-note";
import { InsightRangePicker, useInsightRange } from "@/components/insights/range-picker";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import {
  EXCEPTION_RULE_IDS,
  type ExceptionGroup,
  type ExceptionsReply,
  isExceptionGroup,
  isExceptionRuleId,
} from "@/lib/model/insight-exceptions";
import { useDeferredQuery } from "@/lib/queries/use-deferred-query";

import { previousNote } from "./exception-links";
import { HitList } from "./exceptions-hits";
import { RuleCountsTable, ThresholdsTable } from "./exceptions-tables";
import { hitsViewProblems, parseHitsView } from "./hits-view";
import { type HitsView, useExceptions } from "./use-exceptions";

/**
 * The rule (`rule=`), the grouping (`group=`) and the page of hits (`page=`) in the URL. A new rule or grouping starts
 * again at page 1 (the old page number would point into another list).
 */
function useHitsView(): [HitsView, (change: Partial<HitsView>) => void] {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const view = parseHitsView(searchParams);
  return [
    view,
    (change) => {
      const next = { ...view, page: 1, ...change };
      const params = new URLSearchParams(searchParams.toString());
      const put = (name: string, value: string | null) => {
        if (value === null) params.delete(name);
        else params.set(name, value);
      };
      put("rule", next.rule);
      put("group", next.group);
      put("page", next.page === 1 ? null : String(next.page));
      const search = params.toString();
      router.push(`${pathname}${search === "" ? "" : `?${search}`}` as Route, { scroll: false });
    },
  ];
}

/** A new period starts the hits again at page 1 (the old page could be past the new period's last). */
const PAGE_PARAM = ["page"] as const;

const GROUP_OPTIONS: readonly (readonly [ExceptionGroup, string])[] = [
  ["driver", "Driver"],
  ["card", "Card"],
];

export function ExceptionsView() {
  const range = useInsightRange(30, PAGE_PARAM);
  const [view, setView] = useHitsView();
  const searchParams = useSearchParams();
  const { data, isPending, isError, error, refetch, isFetching } = useDeferredQuery(useExceptions(range.params, view));
  return (
    <div className="space-y-6">
      <InsightRangePicker range={range} linkProblems={hitsViewProblems(searchParams)} />
      {isPending ? (
        <CardSkeleton label="Checking the purchases against the exception rules…" rows={6} className="h-8" />
      ) : isError ? (
        <CardError error={error} subject="exceptions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : (
        <Report reply={data} label={range.label} view={view} onView={setView} busy={isFetching} />
      )}
    </div>
  );
}

function Report({
  reply,
  label,
  view,
  onView,
  busy,
}: {
  reply: ExceptionsReply;
  label: string;
  view: HitsView;
  onView: (change: Partial<HitsView>) => void;
  busy: boolean;
}) {
  const names = new Map(reply.rules.map((r) => [r.id, r.name]));
  const { current, previous } = reply.periods;
  return (
    <div className="space-y-6" aria-busy={busy}>
      <CoverageNote coverage={reply.coverage} />
      <CoverageNote coverage={previousNote(reply)} />
      <Card title={`Hits per rule, ${label}`}>
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          {current.from} to {current.to}, compared with {previous.from} to {previous.to}.
        </p>
        <div className="overflow-x-auto">
          <RuleCountsTable rules={reply.rules} caption={`Exception hits per rule, ${current.from} to ${current.to}`} />
        </div>
      </Card>
      <Card title="Hits">
        <HitFilters names={names} view={view} onView={onView} />
        <HitList
          reply={reply}
          names={names}
          onPage={(page) => {
            onView({ page });
          }}
        />
      </Card>
      <Card title="Thresholds">
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          The thresholds are set for everyone by the dashboard&apos;s administrator; ask them to change one.
        </p>
        <div className="overflow-x-auto">
          <ThresholdsTable thresholds={reply.thresholds} />
        </div>
        <p className="mt-3 text-sm text-slate-700 dark:text-slate-300" data-testid="catalog-note">
          {reply.catalogNote}
        </p>
      </Card>
    </div>
  );
}

function HitFilters({
  names,
  view,
  onView,
}: {
  names: Map<string, string>;
  view: HitsView;
  onView: (change: Partial<HitsView>) => void;
}) {
  return (
    <div className="mb-4 flex flex-wrap gap-4">
      <Field label="Show hits of" className="w-full sm:w-80">
        {(control) => (
          <select
            {...control}
            value={view.rule ?? ""}
            onChange={(event) => {
              const value = event.target.value;
              onView({ rule: isExceptionRuleId(value) ? value : null });
            }}
          >
            <option value="">Every rule</option>
            {EXCEPTION_RULE_IDS.map((id) => (
              <option key={id} value={id}>
                {names.get(id) ?? id}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Group hits by" className="w-full sm:w-48">
        {(control) => (
          <select
            {...control}
            value={view.group ?? ""}
            onChange={(event) => {
              const value = event.target.value;
              onView({ group: isExceptionGroup(value) ? value : null });
            }}
          >
            <option value="">No grouping</option>
            {GROUP_OPTIONS.map(([id, text]) => (
              <option key={id} value={id}>
                {text}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
