"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";

import { CoverageNote } from "@/components/insights/coverage-note";
import { InsightRangePicker, useInsightRange } from "@/components/insights/range-picker";
import { Card } from "@/components/ui/card";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import { useHydrated } from "@/components/ui/use-hydrated";
import { formatCount, formatGallons, formatMoney } from "@/lib/format/numbers";
import type { JurisdictionReply } from "@/lib/model/insight-jurisdictions";
import { METRICS } from "@/lib/model/metrics";
import { PRODUCT_CLASS_RULE } from "@/lib/model/product-classes";
import { fetchJson } from "@/lib/queries/fetch-json";
import { useSession } from "@/lib/queries/session";
import { useDeferredQuery } from "@/lib/queries/use-deferred-query";

import { exportHref, linkRange, transactionsHref } from "./jurisdiction-links";
import { JurisdictionTable, notComparedReason } from "./jurisdiction-table";

const BUTTON =
  "inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700";

function useJurisdictions(query: Record<string, string>) {
  return useQuery({
    queryKey: ["reports", "jurisdictions", query] as const,
    queryFn: ({ signal }) =>
      fetchJson<JurisdictionReply>(`/api/reports/jurisdictions?${new URLSearchParams(query).toString()}`, { signal }),
  });
}

/** The IFTA caveat: fuel by jurisdiction is half of a return; the miles are not in this API. */
function IftaBanner() {
  return (
    <div
      role="note"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p>
        <strong>Not a complete IFTA return.</strong> A quarterly IFTA return also needs the miles driven in each
        jurisdiction, which the Fleet Fuel API does not provide. Add the miles from your ELD or trip records.
      </p>
    </div>
  );
}

function AsideFigures({ reply }: { reply: JurisdictionReply }) {
  const { pending, failed } = reply.report;
  const range = linkRange(reply);
  if (range === null) return null;
  return (
    <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800 dark:text-slate-200">
      <li>
        <strong>Pending</strong> purchases are not in the figures (their amount may still change):{" "}
        <Link className={TEXT_LINK_CLASSES} href={transactionsHref(range, { status: "pending" })}>
          {formatCount(pending.purchases)} pending, {formatGallons(pending.gallons)} gal, {formatMoney(pending.amount)}
        </Link>
        .
      </li>
      <li>
        <strong>Failed</strong> purchases are excluded (no fuel was bought):{" "}
        <Link className={TEXT_LINK_CLASSES} href={transactionsHref(range, { status: "failed" })}>
          {formatCount(failed.purchases)} failed
        </Link>
        .
      </li>
      <li>DEF (diesel exhaust fluid) is never in the fuel gallons: it has its own columns.</li>
    </ul>
  );
}

function QualityBlock({ reply }: { reply: JurisdictionReply }) {
  const { quality } = reply.report;
  const range = linkRange(reply);
  return (
    <Card title="Data quality">
      <ul className="list-disc space-y-2 pl-5 text-sm text-slate-800 dark:text-slate-200">
        <li>
          {quality.noState === 0
            ? "Every completed purchase has a station state."
            : `${formatCount(quality.noState)} completed purchases have no station state: they are in the "No state" rows and belong to no jurisdiction until the station is known.`}
        </li>
        <li>
          {quality.unknownProducts.length === 0 ? (
            "Every product name was recognised."
          ) : (
            <>
              Product names not recognised, counted as "other":{" "}
              {quality.unknownProducts.map((u, index) => (
                <span key={u.product}>
                  {index > 0 ? ", " : ""}
                  {range === null ? (
                    `${u.product} (${formatCount(u.purchases)})`
                  ) : (
                    <Link className={TEXT_LINK_CLASSES} href={transactionsHref(range, { product: u.product })}>
                      {u.product} ({formatCount(u.purchases)})
                    </Link>
                  )}
                </span>
              ))}
              .
            </>
          )}
        </li>
        <li>
          {quality.pendingAtEnd === 0 ? (
            "No purchase in the range is still pending."
          ) : (
            <>
              {range === null ? (
                `${formatCount(quality.pendingAtEnd)} purchases`
              ) : (
                <Link className={TEXT_LINK_CLASSES} href={transactionsHref(range, { status: "pending" })}>
                  {formatCount(quality.pendingAtEnd)} purchases
                </Link>
              )}{" "}
              in the range are still pending as of the data's time; the report leaves them out until they complete.
            </>
          )}
        </li>
      </ul>
      <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">{PRODUCT_CLASS_RULE}</p>
    </Card>
  );
}

/**
 * The previous period's coverage, said as such (review 16 #6): when the copy covers it only in part, the changes are
 * not shown (notComparedReason) and this says why. Undefined when it is complete or there is none.
 */
export function previousCoverageOf(reply: JurisdictionReply): JurisdictionReply["previousCoverage"] | undefined {
  const previous = reply.previousCoverage;
  if (previous.complete || previous.note === null) return undefined;
  const reason = notComparedReason(reply) === null ? "" : " The changes against it are not shown.";
  return {
    ...previous,
    note: `Previous period (${reply.periods.previous.from} to ${reply.periods.previous.to}): ${previous.note}${reason}`,
  };
}

export function JurisdictionReport() {
  const range = useInsightRange();
  const { label } = range;
  const query = Object.fromEntries(range.params);
  const session = useSession();
  const report = useDeferredQuery(useJurisdictions(query));
  // The header asks for the session too and often has it before this boundary hydrates (issue 26 item 3): the
  // customer joins the heading only after hydration, so the hydrating render prints what the server did.
  const isHydrated = useHydrated();
  const customer = isHydrated ? (session.data?.customer.name ?? session.data?.customer.code ?? "") : "";
  return (
    <div data-print-report className="space-y-5">
      {/* Print only: what the sheet is, since the page's header and navigation are not printed. */}
      <p className="hidden text-sm print:block" data-testid="print-heading">
        {customer === "" ? "" : `${customer} · `}Fuel by jurisdiction · {label}
        {report.data ? ` (${report.data.periods.current.from} to ${report.data.periods.current.to})` : ""}
      </p>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        A purchase counts in the quarter of its <strong>local date</strong>: the time on the receipt with its own UTC
        offset, not the UTC date (the UTC date when the provider reports no offset).{" "}
        {METRICS["tax.completed.local-date"].caption}
      </p>
      <div className="print:hidden">
        <InsightRangePicker range={range} />
      </div>
      <IftaBanner />
      {report.isPending ? (
        <CardSkeleton label="Loading the report…" rows={8} />
      ) : report.isError ? (
        <CardError
          error={report.error}
          subject="transactions"
          onRetry={() => void report.refetch()}
          isRetrying={report.isFetching}
        />
      ) : (
        <>
          <CoverageNote coverage={report.data.coverage} />
          <CoverageNote coverage={previousCoverageOf(report.data)} />
          <JurisdictionTable reply={report.data} rangeLabel={label} />
          <AsideFigures reply={report.data} />
          <div className="flex flex-wrap gap-2 print:hidden" role="group" aria-label="Export and print">
            <a className={BUTTON} href={exportHref("csv", query)} download>
              Download CSV
            </a>
            <a className={BUTTON} href={exportHref("xlsx", query)} download>
              Download Excel (with receipts)
            </a>
            <a className={BUTTON} href={exportHref("txt", query)} download>
              About the files (.txt)
            </a>
            <button
              type="button"
              className={BUTTON}
              onClick={() => {
                window.print();
              }}
            >
              Print
            </button>
          </div>
          <QualityBlock reply={report.data} />
        </>
      )}
    </div>
  );
}
