import type { Column, Header } from "@tanstack/react-table";

/**
 * Below this width a table that opts in (a column with a `card` meta) shows each row as a card: Tailwind's `sm`
 * (40rem = 640 px), the width where the page's own padding widens. Every phone held upright is narrower (390–430
 * px), where even four figure columns do not fit; from 640 px (a phone on its side, a tablet) the table with its
 * horizontal scroll reads better than a long column of cards.
 */
export const WIDE_QUERY = "(min-width: 40rem)";

/** Skeleton rows drawn while a table's first answer loads; the rest of its rows are reserved as one empty block. */
export const SKELETON_ROWS = 8;
/** Height is reserved for at most this many rows (a longer page is below the fold anyway). */
export const MAX_RESERVED_ROWS = 50;
/** A row of two lines of text-sm (2 × 20 px) + py-2.5 (2 × 10 px) + the 1 px divider. */
export const ROW_HEIGHT_PX = 61;
/**
 * A card: its title line (20 px), two lines of label and figure pairs (2 × 36 px), the gaps (2 × 8 px), py-3
 * (2 × 12 px) and the 1 px divider: the height a loading card reserves.
 */
export const CARD_HEIGHT_PX = 133;

export interface SkeletonPlan {
  /** Skeleton rows to draw. */
  rows: number;
  /** Height of the empty block after them, so the table is as tall as the rows that will arrive. */
  reservedPx: number;
}

/** How a table of `expectedRows` rows looks while they load: a few skeleton rows, then reserved height. */
export function skeletonPlan(expectedRows: number, rowHeightPx = ROW_HEIGHT_PX): SkeletonPlan {
  const rows = Math.max(0, Math.min(expectedRows, SKELETON_ROWS));
  const reservedRows = Math.max(0, Math.min(expectedRows, MAX_RESERVED_ROWS) - rows);
  return { rows, reservedPx: reservedRows * rowHeightPx };
}

/** Where a column's figure goes on its row's card: its heading line, the first pairs, the pairs after; false: not. */
export type CardPlace = "title" | "primary" | "secondary" | false;

/** What a row's card shows, in the order it shows it (the DOM's order, so focus and reading order follow it). */
export interface CardLayout<T> {
  title: T | null;
  primary: T[];
  secondary: T[];
}

/**
 * A card's parts from its columns' `card` meta, each part in column order: the first "title" column heads the card,
 * then the "primary" columns, then the "secondary" ones and those that say nothing; `false` columns are left out.
 */
export function cardLayout<T>(items: readonly T[], placeOf: (item: T) => CardPlace | undefined): CardLayout<T> {
  const layout: CardLayout<T> = { title: null, primary: [], secondary: [] };
  for (const item of items) {
    const place = placeOf(item) ?? "secondary";
    if (place === false) continue;
    if (place === "title" && layout.title === null) layout.title = item;
    else if (place === "primary") layout.primary.push(item);
    else layout.secondary.push(item);
  }
  return layout;
}

/** A table shows cards on narrow screens when one of its columns says where it goes on a card. */
export function hasCardLayout<TData>(columns: readonly Column<TData>[]): boolean {
  return columns.some((column) => column.columnDef.meta?.card !== undefined);
}

/** The words of a column's heading, for a card's labels and the sort menu: its `label` meta, or a string header. */
export function headingOf<TData>(column: Column<TData>): string {
  const { header, meta } = column.columnDef;
  return meta?.label ?? (typeof header === "string" ? header : column.id);
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
