"use client";

import type { ColumnDef } from "@tanstack/react-table";
import type { Route } from "next";
import Link from "next/link";
import { useMemo } from "react";

import { DataTable, useListTable } from "@/components/ui/data-table";
import { periodChange } from "@/components/ui/period-change";
import { CELL_LINK_CLASSES } from "@/components/ui/text-link";
import { formatCount, formatGallons, formatMoney, formatUnitPrice } from "@/lib/format/numbers";
import type { JurisdictionFigures, JurisdictionReply, JurisdictionRow } from "@/lib/model/insight-jurisdictions";
import type { LocalDateRange } from "@/lib/model/insights";

import { transactionsHref } from "./jurisdiction-links";

/** One table row: a state × fuel, or the total (last). */
interface Line extends JurisdictionFigures {
  id: string;
  label: string;
  fuel: string;
  /** Where its figures link (null: the list cannot filter to exactly these rows, e.g. no state). */
  href: Route | null;
  change: string | null;
}

const toSummary = (f: JurisdictionFigures) => ({
  transactions: f.purchases,
  gallons: f.gallons,
  amount: f.amount,
  averagePricePerGallon: f.averagePrice,
});

function changeText(current: JurisdictionFigures, previous: JurisdictionFigures | null, range: LocalDateRange) {
  const zero: JurisdictionFigures = {
    purchases: 0,
    gallons: "0.000",
    amount: "0.00",
    averagePrice: null,
    defGallons: "0.000",
    defAmount: "0.00",
  };
  const change = periodChange(toSummary(current), {
    from: range.from,
    to: range.to,
    totals: toSummary(previous ?? zero),
  });
  return change === null ? null : `${change.arrow ?? ""} ${change.text}`.trim();
}

function linesOf(reply: JurisdictionReply): Line[] {
  const range = reply.periods.current;
  const previousRange = reply.previous?.range ?? null;
  const lines: Line[] = reply.report.rows.map((r: JurisdictionRow) => ({
    ...r,
    id: `${r.state}-${r.fuel}`,
    label: r.state === "" ? "No state" : r.state,
    href:
      r.state === "" || r.products.length !== 1
        ? null
        : transactionsHref(range, { state: r.state, product: r.products[0] ?? null }),
    change: previousRange === null ? null : changeText(r, r.previous, previousRange),
  }));
  lines.push({
    ...reply.report.totals,
    id: "total",
    label: "Total",
    fuel: "all fuel",
    href: transactionsHref(range, {}),
    change:
      reply.previous === null ? null : changeText(reply.report.totals, reply.previous.totals, reply.previous.range),
  });
  return lines;
}

function Figure({ line, text, what }: { line: Line; text: string; what: string }) {
  if (line.href === null) return <>{text}</>;
  const whose = line.id === "total" ? "all completed purchases" : `${line.label} ${line.fuel} purchases`;
  return (
    <Link href={line.href} className={CELL_LINK_CLASSES} aria-label={`${text} ${what}: view the ${whose}`}>
      {text}
    </Link>
  );
}

const COLUMNS: ColumnDef<Line>[] = [
  { header: "State", accessorKey: "label", meta: { rowHeader: true } },
  { header: "Fuel", accessorKey: "fuel" },
  {
    header: "Purchases",
    cell: ({ row }) => <Figure line={row.original} text={formatCount(row.original.purchases)} what="purchases" />,
    meta: { numeric: true },
  },
  {
    header: "Gallons",
    cell: ({ row }) => <Figure line={row.original} text={formatGallons(row.original.gallons)} what="gallons" />,
    meta: { numeric: true },
  },
  {
    header: "Amount",
    cell: ({ row }) => <Figure line={row.original} text={formatMoney(row.original.amount)} what="spent" />,
    meta: { numeric: true },
  },
  {
    header: "Avg price / gal",
    cell: ({ row }) => (row.original.averagePrice === null ? "—" : formatUnitPrice(row.original.averagePrice)),
    meta: { numeric: true },
  },
  { header: "DEF gal", cell: ({ row }) => formatGallons(row.original.defGallons), meta: { numeric: true } },
  { header: "DEF amount", cell: ({ row }) => formatMoney(row.original.defAmount), meta: { numeric: true } },
  {
    header: "Change vs previous period",
    cell: ({ row }) => row.original.change ?? "Not known",
    meta: { cellClassName: "min-w-48 text-xs" },
  },
];

export function JurisdictionTable({ reply, rangeLabel }: { reply: JurisdictionReply; rangeLabel: string }) {
  const lines = useMemo(() => linesOf(reply), [reply]);
  const table = useListTable(lines, COLUMNS);
  return (
    <DataTable
      table={table}
      caption={`Fuel by state and fuel, ${rangeLabel}: completed purchases on their local dates`}
      testId="jurisdiction-table"
      rowAttributes={(row) => ({ "data-row": row.original.id })}
      empty={<p>No completed purchases in this range.</p>}
      className="print:text-[9pt]"
    />
  );
}
