"use client";

import type { ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { listTotalsWording } from "@/lib/format/metric-sentences";
import { formatCount, formatGallons, formatMoney } from "@/lib/format/numbers";
import { MAX_TOTALS_ROWS } from "@/lib/model/list-totals";
import { type TransactionTotalsParams, useTransactionTotals } from "@/lib/queries/transactions";

/**
 * The filtered set's totals above the table: purchases (from the list's own reply, free), gallons and amount (from
 * `GET /api/transactions/totals`: from the local copy when the list's rows come from it, any size; else a walk of the
 * set, one upstream request per 200 rows, so only for sets of at most MAX_TOTALS_ROWS). It loads and fails on its own and never holds up the table; its height is fixed so the table
 * does not move when it arrives. Its labels and caption come from the metrics layer for the list's Status filter
 * (lib/format/metric-sentences `listTotalsWording`), so they say exactly what each figure counts.
 */
export function TotalsBar({
  filters,
  isFromMirror,
  listTotal,
  isListError,
}: {
  filters: TransactionTotalsParams;
  /** The list's rows come from the local copy: it adds up a set of any size in one query, at no request cost. */
  isFromMirror: boolean;
  listTotal: number | null;
  isListError: boolean;
}) {
  const canAddUp = listTotal !== null && (isFromMirror || listTotal <= MAX_TOTALS_ROWS);
  const totals = useTransactionTotals(filters, canAddUp);
  const data = totals.data;

  let gallons: ReactNode;
  let amount: ReactNode;
  const wording = listTotalsWording(filters.status, data?.state === "summed" ? data.failed : 0);
  let note: ReactNode = wording.caption;
  if (listTotal === null && isListError) {
    gallons = "Not available";
    amount = "Not available";
    note = "No totals while the list itself cannot be loaded.";
  } else if (listTotal === null) {
    gallons = <Skeleton className="h-6 w-24" />;
    amount = <Skeleton className="h-6 w-24" />;
  } else if (!canAddUp || data?.state === "too_many") {
    gallons = "Not added up";
    amount = "Not added up";
    note = `Gallons and amount are added up for at most ${formatCount(MAX_TOTALS_ROWS)} purchases (each 200 cost one request of your API budget): narrow the dates or the status to see them, or export the list.`;
  } else if (totals.isError) {
    gallons = "Not available";
    amount = "Not available";
    note = (
      <span className="flex flex-wrap items-center gap-x-3 gap-y-1" role="alert">
        <span>The totals could not be added up: {totals.error.message}</span>
        <Button variant="secondary" onClick={() => void totals.refetch()} disabled={totals.isFetching}>
          {totals.isFetching ? "Trying again…" : "Try again"}
        </Button>
      </span>
    );
  } else if (data === undefined) {
    gallons = <Skeleton className="h-6 w-24" />;
    amount = <Skeleton className="h-6 w-24" />;
    note = "Adding up gallons and amount…";
  } else if (wording.sums === null) {
    // Status = Failed: nothing of these rows was charged; no $0.00 under a caption that would seem to sum the rows.
    gallons = "None charged";
    amount = "None charged";
  } else {
    gallons = formatGallons(data.gallons);
    amount = formatMoney(data.amount);
  }
  const purchases =
    listTotal !== null ? formatCount(listTotal) : isListError ? "Not available" : <Skeleton className="h-6 w-16" />;
  const isBusy = (listTotal === null && !isListError) || (canAddUp && data === undefined && !totals.isError);

  return (
    <section
      aria-label="Totals of the filtered transactions"
      aria-busy={isBusy}
      data-testid="list-totals"
      className="rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <dl className="flex flex-wrap gap-x-8 gap-y-2">
        <Figure label={wording.purchasesLabel} testId="totals-purchases">
          {purchases}
        </Figure>
        <Figure label={wording.gallonsLabel} testId="totals-gallons">
          {gallons}
        </Figure>
        <Figure label={wording.amountLabel} testId="totals-amount">
          {amount}
        </Figure>
      </dl>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{note}</p>
    </section>
  );
}

function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600 dark:text-slate-400">{label}</dt>
      <dd
        className="mt-0.5 flex h-7 items-center text-lg font-semibold text-slate-900 tabular-nums dark:text-slate-50"
        data-testid={testId}
      >
        {children}
      </dd>
    </div>
  );
}
