import type { Header } from "@tanstack/react-table";

/** Skeleton rows drawn while a table's first answer loads; the rest of its rows are reserved as one empty block. */
export const SKELETON_ROWS = 8;
/** Height is reserved for at most this many rows (a longer page is below the fold anyway). */
export const MAX_RESERVED_ROWS = 50;
/** A row of two lines of text-sm (2 × 20 px) + py-2.5 (2 × 10 px) + the 1 px divider. */
export const ROW_HEIGHT_PX = 61;

export interface SkeletonPlan {
  /** Skeleton rows to draw. */
  rows: number;
  /** Height of the empty block after them, so the table is as tall as the rows that will arrive. */
  reservedPx: number;
}

/** How a table of `expectedRows` rows looks while they load: a few skeleton rows, then reserved height. */
export function skeletonPlan(expectedRows: number): SkeletonPlan {
  const rows = Math.max(0, Math.min(expectedRows, SKELETON_ROWS));
  const reservedRows = Math.max(0, Math.min(expectedRows, MAX_RESERVED_ROWS) - rows);
  return { rows, reservedPx: reservedRows * ROW_HEIGHT_PX };
}

/**
 * A header's aria-sort, or undefined when its table does not sort by it. TanStack says every accessor column "can
 * sort" unless told otherwise, so a column counts as sortable only when its table sorts at all (a sorted row model
 * or manual sorting).
 */
export function ariaSortOf<TData>(header: Header<TData, unknown>): "ascending" | "descending" | "none" | undefined {
  const { table, column } = header.getContext();
  const tableSorts = table.options.getSortedRowModel !== undefined || table.options.manualSorting === true;
  if (!tableSorts || !column.getCanSort() || header.isPlaceholder) return undefined;
  const direction = column.getIsSorted();
  return direction === "asc" ? "ascending" : direction === "desc" ? "descending" : "none";
}

/** Items in groups, the groups in the order they first occur (a group's items keep their order). */
export function groupInOrder<T>(items: readonly T[], groupOf: (item: T) => string): { group: string; rows: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groupOf(item);
    const members = groups.get(group);
    if (members === undefined) groups.set(group, [item]);
    else members.push(item);
  }
  return Array.from(groups, ([group, rows]) => ({ group, rows }));
}
