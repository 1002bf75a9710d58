import type { Row } from "@tanstack/react-table";
import type { ReactNode } from "react";

import { groupInOrder } from "./data-table-logic";

/** Rows shown in groups, one <tbody> each, in the order the groups first occur in the rows. */
export interface DataTableRowGroups<TData> {
  groupOf: (row: Row<TData>) => string;
  /** The group's heading row (`<th scope="rowgroup">` over all columns); null for a group without one. */
  heading: (group: string, rows: readonly Row<TData>[]) => ReactNode;
  /** Extra classes of the group's <tbody> (a rule above it). */
  className?: (group: string) => string | undefined;
}

const GROUP_HEADING = "px-0 pt-3 pb-1 text-left text-xs font-medium text-slate-600 dark:text-slate-400";

/** DataTable's body as one <tbody> per group of rows, each under its heading row where the group has one. */
export function GroupedBodies<TData>({
  groups,
  rows,
  columnCount,
  className,
  renderRow,
}: {
  groups: DataTableRowGroups<TData>;
  rows: readonly Row<TData>[];
  columnCount: number;
  className: string;
  renderRow: (row: Row<TData>) => ReactNode;
}) {
  return groupInOrder(rows, groups.groupOf).map(({ group, rows: members }) => {
    const heading = groups.heading(group, members);
    return (
      <tbody key={group} data-group={group} className={`${className} ${groups.className?.(group) ?? ""}`.trim()}>
        {heading === null || heading === undefined ? null : (
          <tr>
            <th scope="rowgroup" colSpan={columnCount} className={GROUP_HEADING}>
              {heading}
            </th>
          </tr>
        )}
        {members.map(renderRow)}
      </tbody>
    );
  });
}
