import {
  getCoreRowModel,
  type Row,
  type RowData,
  type Table,
  type TableOptions,
  useReactTable,
} from "@tanstack/react-table";
import type { ReactNode, Ref } from "react";

import { DataTableCards, type RowAttributes } from "./data-table-cards";
import { BodyCell, HeaderCell, SkeletonRows } from "./data-table-cells";
import type { DataTableRowGroups } from "./data-table-groups";
import { GroupedBodies } from "./data-table-groups";
import { type CardPlace, hasCardLayout, skeletonPlan, WIDE_QUERY } from "./data-table-logic";
import { useMediaQuery } from "./use-media-query";

export type { RowAttributes } from "./data-table-cards";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type parameters must match TanStack's declaration to merge
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Figures: right-aligned in tabular digits, so a column of amounts lines up. */
    numeric?: boolean;
    /** The cells of this column name their row (`<th scope="row">`), e.g. the driver of a ranking. */
    rowHeader?: boolean;
    /** Extra classes for this column's cells (not its header). */
    cellClassName?: string;
    /**
     * Where this column's figure goes on its row's card on a narrow screen (data-table-logic WIDE_QUERY): "title"
     * heads the card, "primary" pairs come first, "secondary" after, false leaves it out. A table shows cards only
     * when one of its columns says; its columns that say nothing are secondary.
     */
    card?: CardPlace;
    /** Extra classes of this column's pair on a card (`col-span-2` for a sentence). */
    cardClassName?: string;
    /** The heading in words where the header is a function (a card's label, the sort menu). */
    label?: string;
  }
}

/** compact: a narrow side list in a scrolling box of the caller's, its small header sticking to the top. */
type DataTableVariant = "panel" | "plain" | "compact";

interface DataTableLoading {
  /** Read by screen readers while the rows load ("Loading transactions…"). */
  label: string;
  /** The rows the answer will have (a page size): skeleton rows for the first few, reserved height for the rest. */
  rows: number;
}

export interface DataTableProps<TData> {
  table: Table<TData>;
  /** Names the table for screen readers (a visually hidden caption unless captionClassName says how it shows). */
  caption: string;
  captionClassName?: string;
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
  /** The attributes of a row's <tr>, or of its card's <li> on a narrow screen. */
  rowAttributes?: (row: Row<TData>) => RowAttributes;
  /** A ref for a row, its <tr> or its card (the selected one, to scroll it into view). */
  rowRef?: (row: Row<TData>) => Ref<HTMLElement> | undefined;
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
  { wrapper: string; table: string; thead: string; th: string; tbody: string; td: string; card: string }
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
    card: "px-3 py-3",
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
    card: "py-3",
  },
  compact: {
    wrapper: "relative",
    table: "w-full text-left text-sm",
    thead: "sticky top-0 bg-white text-xs text-slate-600 dark:bg-slate-900 dark:text-slate-400",
    th: "py-1 pr-2 font-medium last:pr-0",
    tbody: "divide-y divide-slate-200 dark:divide-slate-800",
    td: "py-2 pr-2 align-top last:pr-0",
    card: "py-2",
  },
};

/**
 * A table over a TanStack Table instance (the caller owns the instance: its columns, pagination, visibility, sorting):
 * real <table> semantics with a caption, sortable headers as buttons with aria-sort, skeleton rows while loading, and
 * the empty and error states in the table's place. A table whose columns say where they go on a card (the `card`
 * meta) shows its rows as cards below WIDE_QUERY's width (data-table-cards).
 */
export function DataTable<TData>(props: DataTableProps<TData>) {
  const { table, variant = "panel", loading = null, error, empty, busy = false, dimmed = false } = props;
  const styles = STYLES[variant];
  const rows = table.getRowModel().rows;
  const isWide = useMediaQuery(WIDE_QUERY);
  const hasCards = hasCardLayout(table.getAllLeafColumns());
  // Until the page has hydrated, both are drawn and CSS shows one (the first paint is right at any width, so nothing
  // shifts); from then on only the one on screen is (one accessible tree, no duplicate ids or test ids).
  const showsTable = !hasCards || isWide !== false;
  const showsCards = hasCards && isWide !== true;
  const below = loading !== null ? null : (error ?? (rows.length === 0 ? empty : null));
  return (
    <div aria-busy={busy} className={`${styles.wrapper} ${props.wrapperClassName ?? ""}`.trim()} data-variant={variant}>
      {showsTable ? (
        <TableView {...props} className={`${hasCards ? "hidden sm:table" : ""} ${props.className ?? ""}`} />
      ) : null}
      {showsCards ? (
        <DataTableCards
          table={table}
          caption={props.caption}
          captionClassName={props.captionClassName}
          loadingRows={loading === null ? null : loading.rows}
          dimmed={dimmed}
          rowAttributes={props.rowAttributes}
          rowRef={props.rowRef}
          rowGroups={props.rowGroups}
          testId={props.testId}
          className="sm:hidden"
          cardClassName={styles.card}
        />
      ) : null}
      {loading === null ? null : <p className="sr-only">{loading.label}</p>}
      {below}
    </div>
  );
}

function TableView<TData>(props: DataTableProps<TData>) {
  const { table, variant = "panel", loading = null, dimmed = false } = props;
  const styles = STYLES[variant];
  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;
  return (
    <table
      className={`${styles.table} transition-opacity ${dimmed ? "opacity-60" : ""} ${props.className ?? ""}`.trim()}
      data-testid={props.testId}
    >
      <caption className={props.captionClassName ?? "sr-only"}>{props.caption}</caption>
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
  );
}

function BodyRow<TData>(props: DataTableProps<TData> & { row: Row<TData> }) {
  const { row } = props;
  const className = STYLES[props.variant ?? "panel"].td;
  return (
    // A row's ref takes the element that draws the row: this <tr>, or its card's <li> (data-table-cards).
    <tr ref={props.rowRef?.(row) as Ref<HTMLTableRowElement> | undefined} {...props.rowAttributes?.(row)}>
      {row.getVisibleCells().map((cell) => (
        <BodyCell key={cell.id} cell={cell} className={className} />
      ))}
    </tr>
  );
}
