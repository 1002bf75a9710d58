"use client";

import type { Route } from "next";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";

import { CoverageNote } from "@/components/insights/coverage-note";
import { InsightRangePicker, useInsightRange } from "@/components/insights/range-picker";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import {
  EXCEPTION_RULE_IDS,
  type ExceptionHit,
  type ExceptionRuleId,
  type ExceptionsReply,
  isExceptionRuleId,
} from "@/lib/model/insight-exceptions";

import { contextHref, previousNote, transactionHref } from "./exception-links";
import { RuleCountsTable, ThresholdsTable } from "./exceptions-tables";
import { useExceptions } from "./use-exceptions";

/** The rule in the URL (`rule=`), or null for all. */
function useRuleFilter(): [ExceptionRuleId | null, (rule: ExceptionRuleId | null) => void] {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const value = searchParams.get("rule");
  const rule = value !== null && isExceptionRuleId(value) ? value : null;
  return [
    rule,
    (next) => {
      const params = new URLSearchParams(searchParams.toString());
      if (next === null) params.delete("rule");
      else params.set("rule", next);
      const search = params.toString();
      router.push(`${pathname}${search === "" ? "" : `?${search}`}` as Route, { scroll: false });
    },
  ];
}

export function ExceptionsView() {
  const range = useInsightRange();
  const [rule, setRule] = useRuleFilter();
  const { data, isPending, isError, error, refetch, isFetching } = useExceptions(range.params, rule);
  return (
    <div className="space-y-6">
      <InsightRangePicker range={range} />
      {isPending ? (
        <CardSkeleton label="Checking the purchases against the exception rules…" rows={6} className="h-8" />
      ) : isError ? (
        <CardError error={error} subject="exceptions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : (
        <Report reply={data} label={range.label} rule={rule} onRule={setRule} busy={isFetching} />
      )}
    </div>
  );
}

function Report({
  reply,
  label,
  rule,
  onRule,
  busy,
}: {
  reply: ExceptionsReply;
  label: string;
  rule: ExceptionRuleId | null;
  onRule: (rule: ExceptionRuleId | null) => void;
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
        <Field label="Show hits of" className="mb-4 w-full sm:w-80">
          {(control) => (
            <select
              {...control}
              value={rule ?? ""}
              onChange={(event) => {
                const value = event.target.value;
                onRule(isExceptionRuleId(value) ? value : null);
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
        <HitList reply={reply} names={names} />
      </Card>
      <Card title="Thresholds">
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          An operator changes a threshold with its environment variable on the dashboard&apos;s server (see{" "}
          <code>.env.example</code>) and restarts it.
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

function HitList({ reply, names }: { reply: ExceptionsReply; names: Map<ExceptionRuleId, string> }) {
  if (reply.hits.length === 0)
    return <p className="text-sm text-slate-700 dark:text-slate-300">No purchase of this period broke a rule.</p>;
  return (
    <>
      <p className="mb-3 text-sm text-slate-700 dark:text-slate-300" role="status">
        {reply.hits.length === reply.hitsTotal
          ? `${String(reply.hitsTotal)} ${reply.hitsTotal === 1 ? "hit" : "hits"}, newest first.`
          : `The newest ${String(reply.hits.length)} of ${String(reply.hitsTotal)} hits.`}
      </p>
      <ol className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="exception-hits">
        {reply.hits.map((hit) => (
          <HitItem
            key={`${hit.rule}:${hit.transactionIds.join(",")}`}
            hit={hit}
            name={names.get(hit.rule) ?? hit.rule}
          />
        ))}
      </ol>
    </>
  );
}

function HitItem({ hit, name }: { hit: ExceptionHit; name: string }) {
  return (
    <li className="py-3" data-rule={hit.rule}>
      <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">
        {name} · {hit.localDate}
      </p>
      <p className="mt-1 text-sm text-slate-900 dark:text-slate-100">{hit.sentence}</p>
      <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {hit.transactionIds.map((id, i) => (
          <Link key={id} href={transactionHref(id)} className={TEXT_LINK_CLASSES}>
            {hit.transactionIds.length === 1 ? "The transaction" : `Transaction ${String(i + 1)}`}
          </Link>
        ))}
        <Link href={contextHref(hit.context)} className={TEXT_LINK_CLASSES}>
          {hit.context.label}
        </Link>
      </p>
    </li>
  );
}
