"use client";

import {
  createColumnHelper,
  getCoreRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import type { Route } from "next";
import Link from "next/link";
import { useMemo, useState } from "react";

import { DataTable } from "@/components/ui/data-table";
import { CELL_LINK_CLASSES } from "@/components/ui/text-link";
import { formatLongDay } from "@/lib/format/dates";
import { formatCount, formatGallons, formatMoney, formatUnitPrice } from "@/lib/format/numbers";
import type { DrilldownDimension, DrilldownFigures, DrilldownRow } from "@/lib/model/insight-drilldowns";
import type { LocalDateRange } from "@/lib/model/insights";
import type { Settling } from "@/lib/model/metrics";
import { entityHref } from "@/lib/queries/insight-links";

import { DIMENSIONS, transactionsLink, type WithinKey } from "./dimensions";
import { spendChangeCell } from "./figures";

/** A row of a drill-down table: a key's figures, and the previous period's when the table shows the change. */
export type FiguresRow = DrilldownRow & { previous?: DrilldownFigures | null; settling?: Settling };

type TableRow = FiguresRow & { id: string };

const column = createColumnHelper<TableRow>();

/** The key's name, linking to its page over the same period (the picker's parameters). */
function nameColumn(dimension: DrilldownDimension, periodQuery: string) {
  return column.accessor("name", {
    header: DIMENSIONS[dimension].heading,
    meta: { rowHeader: true, card: "title" },
    cell: ({ row }) => (
      <>
        <Link
          href={`${entityHref(dimension, row.original.key)}${periodQuery ? `?${periodQuery}` : ""}` as Route}
          prefetch={false}
          className={CELL_LINK_CLASSES}
        >
          {row.original.name}
        </Link>
        {row.original.detail === null ? null : (
          <span className="block text-xs text-slate-600 dark:text-slate-400">{row.original.detail}</span>
        )}
      </>
    ),
  });
}

/** The columns of a table of `dimension`'s keys: name, figures, the change when asked, the link to the rows. */
function figureColumns(
  dimension: DrilldownDimension,
  range: LocalDateRange | null,
  changeHeading: string | null,
  periodQuery: string,
  within: WithinKey | undefined,
) {
  const columns = [
    nameColumn(dimension, periodQuery),
    column.accessor((r) => Number(r.amount), {
      id: "amount",
      header: "Spend",
      meta: { numeric: true, cellClassName: "font-medium", card: "primary" },
      cell: ({ row }) => formatMoney(row.original.amount),
    }),
    column.accessor((r) => Number(r.gallons), {
      id: "gallons",
      header: "Gallons",
      meta: { numeric: true, card: "primary" },
      cell: ({ row }) => formatGallons(row.original.gallons),
    }),
    column.accessor("purchases", {
      header: "Purchases",
      meta: { numeric: true, card: "primary" },
      cell: ({ getValue }) => formatCount(getValue()),
    }),
    column.accessor((r) => (r.averagePricePerGallon === null ? -1 : Number(r.averagePricePerGallon)), {
      id: "price",
      header: "Avg $/gal",
      meta: { numeric: true },
      cell: ({ row }) =>
        row.original.averagePricePerGallon === null ? "—" : formatUnitPrice(row.original.averagePricePerGallon),
    }),
    column.accessor((r) => (r.defRatioPercent === null ? -1 : Number(r.defRatioPercent)), {
      id: "def",
      header: "DEF ratio",
      meta: { numeric: true },
      cell: ({ row }) => (row.original.defRatioPercent === null ? "no diesel" : `${row.original.defRatioPercent} %`),
    }),
    column.accessor((r) => r.lastPurchaseLocalDate ?? "", {
      id: "last",
      header: "Last purchase",
      cell: ({ row }) =>
        row.original.lastPurchaseLocalDate === null ? "—" : formatLongDay(row.original.lastPurchaseLocalDate),
    }),
  ];
  const change =
    changeHeading === null
      ? []
      : [
          column.accessor(
            (r) =>
              r.previous === null || r.previous === undefined || Number(r.previous.amount) === 0
                ? Number.POSITIVE_INFINITY
                : Number(r.amount) / Number(r.previous.amount),
            {
              id: "change",
              header: changeHeading,
              meta: { numeric: true, card: "primary" },
              cell: ({ row }) =>
                spendChangeCell(row.original.amount, row.original.previous ?? null, row.original.settling) ?? "—",
            },
          ),
        ];
  return [...columns, ...change, ...linkColumn(dimension, range, within)];
}

/** Each row's link to the transactions behind its figures (the key's rows on the covered local dates). */
function linkColumn(dimension: DrilldownDimension, range: LocalDateRange | null, within: WithinKey | undefined) {
  return range === null
    ? []
    : [
        column.display({
          id: "transactions",
          header: "Rows",
          enableSorting: false,
          cell: ({ row }) => (
            <Link
              href={transactionsLink(dimension, row.original.key, range, within)}
              className={CELL_LINK_CLASSES}
              aria-label={`View the transactions of ${row.original.name}`}
            >
              View
            </Link>
          ),
        }),
      ];
}

/**
 * A sortable table of drill-down figures (spend first, largest first): names link to their detail pages, each row
 * to the transactions behind it (`range`: the days the figures cover).
 */
export function FiguresTable(props: {
  dimension: DrilldownDimension;
  rows: readonly FiguresRow[];
  range: LocalDateRange | null;
  caption: string;
  /** The change column's heading ("Change vs 2026-04-01 to 2026-04-30"); null: no such column. */
  changeHeading?: string | null;
  /** The page's period parameters (quarter or from/to), carried to the linked pages. */
  periodQuery: string;
  /** A detail page's breakdown: its own key, which each row's transactions link keeps too. */
  within?: WithinKey;
  testId?: string;
}) {
  const { dimension, rows, range, caption, changeHeading = null, periodQuery, within, testId } = props;
  const [sorting, setSorting] = useState<SortingState>([{ id: "amount", desc: true }]);
  const data = useMemo((): TableRow[] => rows.map((r) => ({ ...r, id: r.key })), [rows]);
  const columns = useMemo(
    () => figureColumns(dimension, range, changeHeading, periodQuery, within),
    [dimension, range, changeHeading, periodQuery, within],
  );
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table is not React-Compiler compatible; the app does not use the compiler
  const table = useReactTable<TableRow>({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (row) => row.id,
    sortDescFirst: true,
  });
  return (
    <DataTable
      table={table}
      caption={caption}
      variant="panel"
      className="min-w-[52rem]"
      testId={testId}
      rowAttributes={(row) => ({ "data-key": row.id })}
      empty={<p className="p-3 text-sm text-slate-700 dark:text-slate-300">No purchases in this period.</p>}
    />
  );
}
