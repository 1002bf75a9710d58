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
import type { Settling } from "@/lib/model/metrics";

import { linkRange, transactionsHref } from "./jurisdiction-links";

/** One table row: a state × fuel, the total, and (with DEF-only purchases) every completed purchase (last). */
export interface Line extends JurisdictionFigures {
  id: string;
  label: string;
  fuel: string;
  /** Where its figures link (null: the list cannot filter to exactly these rows; `noLink` says why). */
  href: Route | null;
  noLink: string | null;
  /** A row of several product names: one link per name (the list filters by one name at a time). */
  productLinks: { product: string; href: Route }[];
  change: string | null;
  /** The all-completed line: fuel and DEF bought alone together, so no average price or DEF split of its own. */
  allCompleted?: true;
}

const NO_FIGURES: JurisdictionFigures = {
  purchases: 0,
  gallons: "0.000",
  amount: "0.00",
  averagePrice: null,
  defGallons: "0.000",
  defAmount: "0.00",
};

/**
 * The metrics layer's one rule, the tax metric on both sides (completed only): while the period still has pending
 * purchases its completed figures are not final, so "N days still settling" instead of a fall that is only that.
 */
function changeText(
  current: JurisdictionFigures,
  previous: JurisdictionFigures | null,
  range: LocalDateRange,
  settling: Settling,
) {
  const change = periodChange({
    metric: "tax.completed.local-date",
    current: { amount: current.amount },
    previous: { ...range, amount: (previous ?? NO_FIGURES).amount },
    settling,
  });
  return change === null ? null : `${change.arrow ?? ""} ${change.text}`.trim();
}

/** Why a change is not shown: a period the local copy covers only in part is not compared (review 16 #6). */
export function notComparedReason(reply: JurisdictionReply): string | null {
  if (reply.previous === null) return null;
  if (!reply.previousCoverage.complete) return "Not compared: the previous period is only partly loaded";
  if (!reply.coverage.complete) return "Not compared: this period is only partly loaded";
  return null;
}

export function linesOf(reply: JurisdictionReply): Line[] {
  // The days the figures cover exactly (review 16 #3): a link over the whole requested range would list more rows.
  const range = linkRange(reply);
  const notCompared = notComparedReason(reply);
  const changeOf = (current: JurisdictionFigures, previous: JurisdictionFigures | null) =>
    reply.previous === null
      ? null
      : (notCompared ?? changeText(current, previous, reply.previous.range, reply.settling));
  const lines: Line[] = reply.report.rows.map((r: JurisdictionRow) => {
    const label = r.state === "" ? "No state" : r.state;
    const one = r.products.length === 1 ? (r.products[0] ?? null) : null;
    const noLink =
      range === null
        ? null
        : r.state === ""
          ? "The transactions list cannot filter to purchases without a station state."
          : one === null
            ? `This row adds up ${String(r.products.length)} product names, and the transactions list filters by one name at a time: see each name's purchases.`
            : null;
    return {
      ...r,
      id: `${r.state}-${r.fuel}`,
      label,
      href: range === null || noLink !== null ? null : transactionsHref(range, { state: r.state, product: one }),
      noLink,
      productLinks:
        range === null || r.state === "" || one !== null
          ? []
          : r.products.map((product) => ({ product, href: transactionsHref(range, { state: r.state, product }) })),
      change: changeOf(r, r.previous),
    };
  });
  const { defOnly, completed, totals } = reply.report;
  const withDefOnly = defOnly.purchases > 0;
  lines.push({
    ...totals,
    id: "total",
    label: "Total",
    fuel: "all fuel",
    // With DEF bought alone, the list's totals for every completed purchase count its gallons: the next line ties out.
    href: range === null || withDefOnly ? null : transactionsHref(range, {}),
    noLink:
      range !== null && withDefOnly
        ? "DEF bought alone is in the DEF columns, not the fuel gallons: the next line links every completed purchase."
        : null,
    productLinks: [],
    change: changeOf(totals, reply.previous?.totals ?? null),
  });
  if (withDefOnly)
    lines.push({
      ...NO_FIGURES,
      ...completed,
      id: "all-completed",
      label: "All completed purchases",
      fuel: `fuel and ${formatCount(defOnly.purchases)} DEF-only (${formatGallons(defOnly.gallons)} gal, ${formatMoney(defOnly.amount)})`,
      href: range === null ? null : transactionsHref(range, {}),
      noLink: null,
      productLinks: [],
      change: null,
      allCompleted: true,
    });
  return lines;
}

function Figure({ line, text, what }: { line: Line; text: string; what: string }) {
  if (line.href === null) return <>{text}</>;
  const whose =
    line.id === "total" || line.allCompleted ? "all completed purchases" : `${line.label} ${line.fuel} purchases`;
  return (
    <Link href={line.href} className={CELL_LINK_CLASSES} aria-label={`${text} ${what}: view the ${whose}`}>
      {text}
    </Link>
  );
}

/** The fuel, and when the row's figures have no link, why, with what the list can show instead. */
function FuelCell({ line }: { line: Line }) {
  return (
    <>
      {line.fuel}
      {line.noLink === null ? null : (
        <span className="block text-xs text-slate-600 dark:text-slate-400">{line.noLink}</span>
      )}
      {line.productLinks.length === 0 ? null : (
        <span className="block text-xs">
          {line.productLinks.map((p, index) => (
            <span key={p.product}>
              {index > 0 ? " · " : ""}
              <Link
                href={p.href}
                className={CELL_LINK_CLASSES}
                aria-label={`View the ${line.label} purchases of ${p.product}`}
              >
                {p.product}
              </Link>
            </span>
          ))}
        </span>
      )}
    </>
  );
}

const COLUMNS: ColumnDef<Line>[] = [
  { header: "State", accessorKey: "label", meta: { rowHeader: true, card: "title" } },
  { header: "Fuel", cell: ({ row }) => <FuelCell line={row.original} />, meta: { card: "primary" } },
  {
    header: "Purchases",
    cell: ({ row }) => <Figure line={row.original} text={formatCount(row.original.purchases)} what="purchases" />,
    meta: { numeric: true },
  },
  {
    header: "Gallons",
    cell: ({ row }) => <Figure line={row.original} text={formatGallons(row.original.gallons)} what="gallons" />,
    meta: { numeric: true, card: "primary" },
  },
  {
    header: "Amount",
    cell: ({ row }) => <Figure line={row.original} text={formatMoney(row.original.amount)} what="spent" />,
    meta: { numeric: true, card: "primary" },
  },
  {
    header: "Avg price / gal",
    cell: ({ row }) =>
      row.original.allCompleted || row.original.averagePrice === null
        ? "—"
        : formatUnitPrice(row.original.averagePrice),
    meta: { numeric: true },
  },
  {
    header: "DEF gal",
    cell: ({ row }) => (row.original.allCompleted ? "—" : formatGallons(row.original.defGallons)),
    meta: { numeric: true },
  },
  {
    header: "DEF amount",
    cell: ({ row }) => (row.original.allCompleted ? "—" : formatMoney(row.original.defAmount)),
    meta: { numeric: true },
  },
  {
    header: "Change vs previous period",
    cell: ({ row }) => (row.original.allCompleted ? "—" : (row.original.change ?? "Not known")),
    meta: { cellClassName: "min-w-48 text-xs", card: "secondary", cardClassName: "col-span-2" },
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
