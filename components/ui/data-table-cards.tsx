import { type Cell, flexRender, type Row, type Table } from "@tanstack/react-table";
import { type HTMLAttributes, type ReactNode, type Ref, useId } from "react";

import type { DataTableRowGroups } from "./data-table-groups";
import {
  ariaSortOf,
  CARD_HEIGHT_PX,
  cardLayout,
  groupInOrder,
  headingOf,
  type SkeletonPlan,
  skeletonPlan,
} from "./data-table-logic";
import { Skeleton } from "./skeleton";

/** Attributes of one body row, on its <tr> or its card's <li>: handlers, a test id, data-* for tests and links. */
export type RowAttributes = HTMLAttributes<HTMLElement> & Partial<Record<`data-${string}`, string>>;

export interface DataTableCardsProps<TData> {
  table: Table<TData>;
  caption: string;
  /** Classes of a visible caption (the table's <caption>, the cards' heading); the caption is for screen readers otherwise. */
  captionClassName?: string | undefined;
  /** The loading rows' count, or null when the rows are there. */
  loadingRows: number | null;
  dimmed: boolean;
  rowAttributes?: ((row: Row<TData>) => RowAttributes) | undefined;
  rowRef?: ((row: Row<TData>) => Ref<HTMLElement> | undefined) | undefined;
  rowGroups?: DataTableRowGroups<TData> | undefined;
  testId?: string | undefined;
  /** sm:hidden while CSS alone chooses between the table and the cards (before hydration). */
  className: string;
  /** Space around a card: inside a bordered panel, or inside a card of the page's. */
  cardClassName: string;
}

const LIST = "divide-y divide-slate-200 text-slate-900 dark:divide-slate-800 dark:text-slate-100";
const LABEL = "text-xs text-slate-600 dark:text-slate-400";
const GROUP_HEADING = "pt-3 pb-1 text-xs font-medium text-slate-600 dark:text-slate-400";

/**
 * The rows as a list of cards, one per row: a definition list of the figures its columns' `card` meta names first
 * (the title, then the primary pairs, then the secondary ones), each labelled with its column's heading. The row's
 * attributes (its link, Enter to open, test ids) and ref go on the card; a sort menu stands in for the headers.
 */
export function DataTableCards<TData>(props: DataTableCardsProps<TData>) {
  const captionId = useId();
  const rows = props.table.getRowModel().rows;
  const renderCard = (row: Row<TData>) => <RowCard key={row.id} {...props} row={row} />;
  return (
    <div
      role="group"
      aria-labelledby={captionId}
      data-testid={props.testId}
      data-layout="cards"
      className={`${props.className} transition-opacity ${props.dimmed ? "opacity-60" : ""}`.trim()}
    >
      <p id={captionId} className={props.captionClassName ?? "sr-only"}>
        {props.caption}
      </p>
      <SortMenu table={props.table} />
      {props.loadingRows !== null ? (
        <SkeletonCards plan={skeletonPlan(props.loadingRows, CARD_HEIGHT_PX)} className={props.cardClassName} />
      ) : props.rowGroups === undefined ? (
        <ul className={LIST}>{rows.map(renderCard)}</ul>
      ) : (
        <GroupedCards groups={props.rowGroups} rows={rows} renderCard={renderCard} />
      )}
    </div>
  );
}

function GroupedCards<TData>({
  groups,
  rows,
  renderCard,
}: {
  groups: DataTableRowGroups<TData>;
  rows: readonly Row<TData>[];
  renderCard: (row: Row<TData>) => ReactNode;
}) {
  return groupInOrder(rows, groups.groupOf).map(({ group, rows: members }) => {
    const heading = groups.heading(group, members);
    return (
      <div key={group} data-group={group} className={groups.className?.(group)}>
        {heading === null || heading === undefined ? null : <p className={GROUP_HEADING}>{heading}</p>}
        <ul className={LIST}>{members.map(renderCard)}</ul>
      </div>
    );
  });
}

function RowCard<TData>(props: DataTableCardsProps<TData> & { row: Row<TData> }) {
  const { row } = props;
  const titleId = useId();
  const layout = cardLayout(row.getVisibleCells(), (cell) => cell.column.columnDef.meta?.card);
  const attributes = props.rowAttributes?.(row) ?? {};
  return (
    <li
      ref={props.rowRef?.(row) as Ref<HTMLLIElement> | undefined}
      aria-labelledby={layout.title === null ? undefined : titleId}
      {...attributes}
      className={`${props.cardClassName} ${attributes.className ?? ""}`.trim()}
    >
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        {layout.title === null ? null : (
          <div className="col-span-2">
            <dt className="sr-only">{headingOf(layout.title.column)}</dt>
            <dd id={titleId} className="font-medium" data-column={layout.title.column.id}>
              {flexRender(layout.title.column.columnDef.cell, layout.title.getContext())}
            </dd>
          </div>
        )}
        {layout.primary.map((cell) => (
          <CardPair key={cell.id} cell={cell} />
        ))}
        {layout.secondary.map((cell) => (
          <CardPair key={cell.id} cell={cell} isSecondary />
        ))}
      </dl>
    </li>
  );
}

/** A figure under its label. Numeric figures keep tabular digits but read left to right here, under their label. */
function CardPair<TData>({ cell, isSecondary = false }: { cell: Cell<TData, unknown>; isSecondary?: boolean }) {
  const meta = cell.column.columnDef.meta;
  return (
    <div className={`min-w-0 ${meta?.cardClassName ?? ""}`.trim()}>
      <dt className={LABEL}>{headingOf(cell.column)}</dt>
      <dd
        data-column={cell.column.id}
        className={`break-words ${meta?.numeric === true ? "tabular-nums" : ""} ${isSecondary ? "text-xs" : ""}`.trim()}
      >
        {flexRender(cell.column.columnDef.cell, cell.getContext())}
      </dd>
    </div>
  );
}

/** The headers' sort buttons as one menu above the cards: every order the table offers, the current one chosen. */
function SortMenu<TData>({ table }: { table: Table<TData> }) {
  const id = useId();
  const sortable = table.getLeafHeaders().filter((header) => ariaSortOf(header) !== undefined);
  if (sortable.length === 0) return null;
  const current = table.getState().sorting[0];
  const value = current === undefined ? "" : `${current.id}:${current.desc ? "desc" : "asc"}`;
  return (
    <div className="flex items-center gap-2 py-2 text-sm">
      <label htmlFor={id} className="text-slate-700 dark:text-slate-300">
        Sort by
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const [column = "", direction] = event.target.value.split(":");
          table.setSorting([{ id: column, desc: direction === "desc" }]);
        }}
        className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-900"
      >
        {value === "" ? <option value="">Unsorted</option> : null}
        {sortable.flatMap((header) => {
          const heading = headingOf(header.column);
          return [
            <option key={`${header.id}:asc`} value={`${header.column.id}:asc`}>
              {heading}, ascending
            </option>,
            <option key={`${header.id}:desc`} value={`${header.column.id}:desc`}>
              {heading}, descending
            </option>,
          ];
        })}
      </select>
    </div>
  );
}

/** Loading cards as tall as real ones, then one block as tall as the rest (no layout shift when they arrive). */
function SkeletonCards({ plan, className }: { plan: SkeletonPlan; className: string }) {
  return (
    <ul className={LIST}>
      {Array.from({ length: plan.rows }, (_, index) => (
        <li key={index} data-skeleton="" className={className}>
          <div className="flex flex-col gap-2">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-full" />
          </div>
        </li>
      ))}
      {plan.reservedPx > 0 ? <li aria-hidden="true" style={{ height: `${String(plan.reservedPx)}px` }} /> : null}
    </ul>
  );
}
