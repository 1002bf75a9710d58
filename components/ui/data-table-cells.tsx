import { type Cell, flexRender, type Header } from "@tanstack/react-table";

import { ariaSortOf, type SkeletonPlan } from "./data-table-logic";
import { Skeleton } from "./skeleton";

/** The cells of DataTable's <table>: sortable header cells, body cells, skeleton rows. */

export function HeaderCell<TData>({ header, className }: { header: Header<TData, unknown>; className: string }) {
  const numeric = header.column.columnDef.meta?.numeric === true;
  const sort = ariaSortOf(header);
  const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
  return (
    <th scope="col" aria-sort={sort} colSpan={header.colSpan} className={`${className} ${numeric ? "text-right" : ""}`}>
      {sort === undefined ? (
        content
      ) : (
        <button
          type="button"
          onClick={header.column.getToggleSortingHandler()}
          className={`inline-flex items-center gap-1 rounded hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 dark:focus-visible:outline-brand-400 ${numeric ? "flex-row-reverse" : ""}`}
        >
          {content}
          <SortArrow direction={sort} />
        </button>
      )}
    </th>
  );
}

/** The sort direction as a shape (up, down, or both when unsorted); aria-sort says it in words. */
function SortArrow({ direction }: { direction: "ascending" | "descending" | "none" }) {
  const path =
    direction === "ascending"
      ? "M4 10l4-4 4 4"
      : direction === "descending"
        ? "M4 6l4 4 4-4"
        : "M5 6l3-3 3 3M5 10l3 3 3-3";
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className="size-3.5 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d={path} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function BodyCell<TData>({ cell, className }: { cell: Cell<TData, unknown>; className: string }) {
  const meta = cell.column.columnDef.meta;
  const classes = `${className} ${meta?.numeric === true ? "text-right whitespace-nowrap tabular-nums" : ""} ${meta?.cellClassName ?? ""}`;
  const content = flexRender(cell.column.columnDef.cell, cell.getContext());
  return meta?.rowHeader === true ? (
    <th scope="row" data-column={cell.column.id} className={classes}>
      {content}
    </th>
  ) : (
    <td data-column={cell.column.id} className={classes}>
      {content}
    </td>
  );
}

/**
 * A few skeleton rows as tall as real ones (two lines of text), then one empty block as tall as the rest of the
 * rows: the arriving rows do not push the rest of the page around (layout shift), and the skeleton costs few DOM
 * nodes (blocking time).
 */
export function SkeletonRows({
  plan,
  columnCount,
  className,
}: {
  plan: SkeletonPlan;
  columnCount: number;
  className: string;
}) {
  return (
    <>
      {Array.from({ length: plan.rows }, (_, index) => (
        <tr key={index} data-skeleton="">
          {Array.from({ length: columnCount }, (_, column) => (
            <td key={column} className={className}>
              <div className="flex flex-col gap-1 py-0.5">
                <Skeleton className="h-4 w-full min-w-12" />
                <Skeleton className="h-4 w-2/3 min-w-8" />
              </div>
            </td>
          ))}
        </tr>
      ))}
      {plan.reservedPx > 0 ? (
        <tr aria-hidden="true">
          <td colSpan={columnCount} style={{ height: `${String(plan.reservedPx)}px` }} />
        </tr>
      ) : null}
    </>
  );
}
