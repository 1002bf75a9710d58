"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { Route } from "next";
import Link from "next/link";

import { CoverageNote } from "@/components/insights/coverage-note";
import { DataTable, useListTable } from "@/components/ui/data-table";
import { DefinitionList } from "@/components/ui/definition-list";
import { EntityLink } from "@/components/ui/entity-link";
import { CELL_LINK_CLASSES, TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import { formatDay, formatLongDay } from "@/lib/format/dates";
import { formatCount, formatCountOf, formatGallons, formatMoney, formatUnitPrice } from "@/lib/format/numbers";
import type { MissedSaving, SavingsReply } from "@/lib/model/insight-savings";
import type { SavingsScope } from "@/lib/queries/savings";

import { savingsChange } from "./savings-change";
import { savingsTransactionsLink } from "./savings-link";
import { comparedText, notComparedItems, observedWhenText, priceAppliedText } from "./savings-text";

/** The savings figures of one reply: the headline, its basis, the change, the details and the largest missed ones. */
export function SavingsFiguresView({ reply, scope }: { reply: SavingsReply; scope: SavingsScope }) {
  const { current, previous, range } = reply;
  const change =
    previous.coverage.covered === null
      ? null
      : savingsChange(current.couldHaveSaved, previous.figures.couldHaveSaved, previous.range);
  const period = `${formatLongDay(range.from)} to ${formatLongDay(range.to)}`;
  return (
    <div className="space-y-4" data-testid="savings-panel">
      <CoverageNote coverage={reply.coverage} />
      <div>
        <p
          className="text-xl font-semibold text-slate-900 tabular-nums dark:text-slate-50"
          data-testid="savings-headline"
        >
          Could have saved {formatMoney(current.couldHaveSaved)} on {formatCount(current.fillsWithSaving)}{" "}
          {current.fillsWithSaving === 1 ? "fill" : "fills"}
        </p>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="savings-basis">
          by filling at the cheapest other station within {String(reply.radiusMiles)} miles, at the prices observed
          within {String(reply.windowHours)} h of each fill: computed {comparedText(current)} (
          {formatGallons(current.gallons)} gal compared) from {period}, by purchase-local date.
        </p>
        {change === null ? null : (
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="savings-change">
            {change.arrow === null ? null : <span aria-hidden="true">{change.arrow} </span>}
            {change.text}
          </p>
        )}
      </div>
      <DefinitionList
        items={[
          [
            "Paid above the state's median price",
            `${formatMoney(current.aboveStateMedian)} on ${formatCountOf(current.fillsAboveStateMedian, "fill", "fills")}`,
          ],
          ["Customer price applied?", priceAppliedText(current, reply.windowHours)],
          ...notComparedItems(current, reply.windowHours, reply.radiusMiles),
        ]}
      />
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {reply.catalog.historySince === null
          ? "No station price has been observed yet: fills are compared once the catalog walks have seen prices around them."
          : `Prices are those the catalog walks observed, since ${formatDay(reply.catalog.historySince.slice(0, 10))}: a fill is compared only with prices seen within ${String(reply.windowHours)} h of it, never with today's price for an older fill nor with its own station at another time.`}
      </p>
      <p className="text-sm">
        <Link className={TEXT_LINK_CLASSES} href={savingsTransactionsLink(range, scope)}>
          View the {formatCount(current.fills + current.otherProduct.fills + current.unknownStation.fills)} completed
          transactions behind these figures
        </Link>
      </p>
      {reply.top.length === 0 ? null : <MissedTable items={reply.top} />}
    </div>
  );
}

type Row = MissedSaving & { id: string };
const column = createColumnHelper<Row>();
const stationLink = (s: { id: string; name: string }) => (
  <EntityLink kind="station" id={s.id} inCell>
    {s.name}
  </EntityLink>
);

const COLUMNS = [
  column.accessor("localDate", {
    header: "Fill",
    meta: { rowHeader: true, card: "title" },
    cell: ({ row }) => (
      <>
        <Link
          className={CELL_LINK_CLASSES}
          href={`/transactions/${encodeURIComponent(row.original.transactionId)}` as Route}
        >
          {formatDay(row.original.localDate)}
        </Link>
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          <EntityLink kind="driver" id={row.original.driver.id} inCell>
            {row.original.driver.name}
          </EntityLink>
        </span>
      </>
    ),
  }),
  column.accessor((r) => r.station.name, {
    id: "station",
    header: "Filled at",
    meta: { card: "primary" },
    cell: ({ row }) => (
      <>
        {stationLink(row.original.station)}
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          {formatUnitPrice(row.original.paid)} · {formatGallons(row.original.gallons)} gal
        </span>
      </>
    ),
  }),
  column.accessor((r) => r.cheaper.name, {
    id: "cheaper",
    header: "Cheaper nearby",
    meta: { card: "primary" },
    cell: ({ row }) => (
      <>
        {stationLink(row.original.cheaper)}
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          {formatUnitPrice(row.original.cheaper.price)} · {row.original.cheaper.miles} mi ·{" "}
          {observedWhenText(row.original.cheaper.apartMinutes)}
        </span>
      </>
    ),
  }),
  column.accessor("saving", {
    header: "Could have saved",
    meta: { numeric: true, cellClassName: "font-medium", card: "primary" },
    cell: ({ getValue }) => formatMoney(getValue()),
  }),
];

function MissedTable({ items }: { items: MissedSaving[] }) {
  const rows = items.map((m) => ({ ...m, id: m.transactionId }));
  const table = useListTable(rows, COLUMNS);
  return (
    <DataTable
      table={table}
      variant="plain"
      caption="Largest missed savings"
      testId="savings-top"
      // Its cells hold links, so the scroll box has something to focus (axe: scrollable-region-focusable).
      wrapperClassName="overflow-x-auto"
    />
  );
}
