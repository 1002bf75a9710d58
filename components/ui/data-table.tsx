import {
  type Cell,
  flexRender,
  getCoreRowModel,
  type Header,
  type Row,
  type RowData,
  type Table,
  type TableOptions,
  useReactTable,
} from "@tanstack/react-table";
import type { ComponentPropsWithoutRef, ReactNode, Ref } from "react";

import type { DataTableRowGroups } from "./data-table-groups";
import { GroupedBodies } from "./data-table-groups";
import { ariaSortOf, type SkeletonPlan, skeletonPlan } from "./data-table-logic";
import { Skeleton } from "./skeleton";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type parameters must match TanStack's declaration to merge
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Figures: right-aligned in tabular digits, so a column of amounts lines up. */
    numeric?: boolean;
    /** The cells of this column name their row (`<th scope="row">`), e.g. the driver of a ranking. */
    rowHeader?: boolean;
    /** Extra classes for this column's cells (not its header). */
    cellClassName?: string;
  }
}

/** compact: a narrow side list in a scrolling box of the caller's, its small header sticking to the top. */
type DataTableVariant = "panel" | "plain" | "compact";

/** Attributes of one body row: handlers, a test id, data-* for tests and links. */
export type RowAttributes = ComponentPropsWithoutRef<"tr"> & Partial<Record<`data-${string}`, string>>;

interface DataTableLoading {
  /** Read by screen readers while the rows load ("Loading transactions…"). */
  label: string;
  /** The rows the answer will have (a page size): skeleton rows for the first few, reserved height for the rest. */
  rows: number;
}

export interface DataTableProps<TData> {
  table: Table<TData>;
  /** Names the table for screen readers (a visually hidden caption). */
  caption: string;
  /** panel: a bordered box of its own (a page's main list); plain: inside a card. */
  variant?: DataTableVariant;
  /** Skeleton rows in place of the body while the first answer loads. */
  loading?: DataTableLoading | null;
  /** Shown under the headers in place of rows when loading failed (a QueryErrorNotice). */
  error?: ReactNode;
  /** Shown under the headers when there are no rows (and nothing loads or failed). */
  empty?: ReactNode;
  /** The wrapper is busy: `aria-busy` while rows load or are replaced. */
  busy?: boolean;
  /** The rows on screen are stale (a next page loads): they fade. */
  dimmed?: boolean;
  rowAttributes?: (row: Row<TData>) => RowAttributes;
  /** A ref for a row (the selected one, to scroll it into view). */
  rowRef?: (row: Row<TData>) => Ref<HTMLTableRowElement> | undefined;
  rowGroups?: DataTableRowGroups<TData>;
  testId?: string;
  /** Extra classes of the <table> (a minimum width) and of the scrolling wrapper. */
  className?: string;
  wrapperClassName?: string;
}

/**
 * A table instance for a short list shown as it comes (no paging, no sorting, no hidden columns): the overview's
 * cards. Rows are keyed by their `id`; pass the same array while the list is the same (memoize a mapped one).
 */
export function useListTable<TData extends { id: string }>(data: TData[], columns: TableOptions<TData>["columns"]) {
  // TanStack Table is not compatible with the React Compiler's memoization; this app does not use the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  return useReactTable(listTableOptions(data, columns));
}

/** The options of useListTable's table, apart so a test can build the table without React. */
export function listTableOptions<TData extends { id: string }>(
  data: TData[],
  columns: TableOptions<TData>["columns"],
): TableOptions<TData> {
  return {
    data,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    // Nothing to reset without paging: and TanStack's reset on new data would set state, so a caller passing a new
    // array on each render (a mapped list) would render forever.
    autoResetAll: false,
  };
}

const STYLES: Record<
  DataTableVariant,
  { wrapper: string; table: string; thead: string; th: string; tbody: string; td: string }
> = {
  panel: {
    wrapper:
      "relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900",
    table: "w-full text-left text-sm",
    thead:
      "border-b border-slate-200 bg-slate-50 text-slate-700 dark:border-slate-800 dark:bg-slate-800/60 dark:text-slate-200",
    th: "px-3 py-2.5 font-semibold whitespace-nowrap",
    tbody: "divide-y divide-slate-100 text-slate-900 dark:divide-slate-800 dark:text-slate-100",
    td: "px-3 py-2.5 align-top",
  },
  plain: {
    // No scrolling of its own: a scrolling box needs something focusable inside (axe: scrollable-region-focusable),
    // so a caller whose cells hold links may add overflow-x-auto (wrapperClassName).
    wrapper: "relative",
    table: "w-full text-left text-sm",
    thead: "text-slate-600 dark:text-slate-400",
    th: "pb-2 pr-3 font-medium last:pr-0",
    tbody: "divide-y divide-slate-200 text-slate-900 dark:divide-slate-800 dark:text-slate-100",
    td: "py-2 pr-3 font-normal last:pr-0",
  },
  compact: {
    wrapper: "relative",
    table: "w-full text-left text-sm",
    thead: "sticky top-0 bg-white text-xs text-slate-600 dark:bg-slate-900 dark:text-slate-400",
    th: "py-1 pr-2 font-medium last:pr-0",
    tbody: "divide-y divide-slate-200 dark:divide-slate-800",
    td: "py-2 pr-2 align-top last:pr-0",
  },
};

/**
 * A table over a TanStack Table instance (the caller owns the instance: its columns, pagination, visibility, sorting):
 * real <table> semantics with a caption, sortable headers as buttons with aria-sort, skeleton rows while loading, and
 * the empty and error states in the table's place.
 */
export function DataTable<TData>(props: DataTableProps<TData>) {
  const { table, variant = "panel", loading = null, error, empty, busy = false, dimmed = false } = props;
  const styles = STYLES[variant];
  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;
  const below = loading !== null ? null : (error ?? (rows.length === 0 ? empty : null));
  return (
    <div aria-busy={busy} className={`${styles.wrapper} ${props.wrapperClassName ?? ""}`.trim()} data-variant={variant}>
      <table
        className={`${styles.table} transition-opacity ${dimmed ? "opacity-60" : ""} ${props.className ?? ""}`.trim()}
        data-testid={props.testId}
      >
        <caption className="sr-only">{props.caption}</caption>
        <thead className={styles.thead}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <HeaderCell key={header.id} header={header} className={styles.th} />
              ))}
            </tr>
          ))}
        </thead>
        {loading === null && props.rowGroups !== undefined ? (
          <GroupedBodies
            groups={props.rowGroups}
            rows={rows}
            columnCount={columnCount}
            className={styles.tbody}
            renderRow={(row) => <BodyRow key={row.id} {...props} row={row} />}
          />
        ) : (
          <tbody className={styles.tbody}>
            {loading === null ? (
              rows.map((row) => <BodyRow key={row.id} {...props} row={row} />)
            ) : (
              <SkeletonRows plan={skeletonPlan(loading.rows)} columnCount={columnCount} className={styles.td} />
            )}
          </tbody>
        )}
      </table>
      {loading === null ? null : <p className="sr-only">{loading.label}</p>}
      {below}
    </div>
  );
}

function BodyRow<TData>(props: DataTableProps<TData> & { row: Row<TData> }) {
  const { row } = props;
  const className = STYLES[props.variant ?? "panel"].td;
  return (
    <tr ref={props.rowRef?.(row)} {...props.rowAttributes?.(row)}>
      {row.getVisibleCells().map((cell) => (
        <BodyCell key={cell.id} cell={cell} className={className} />
      ))}
    </tr>
  );
}

function HeaderCell<TData>({ header, className }: { header: Header<TData, unknown>; className: string }) {
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

function BodyCell<TData>({ cell, className }: { cell: Cell<TData, unknown>; className: string }) {
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
function SkeletonRows({
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
