import { type Expression, sql, type SqlBool } from "kysely";

import type { Transaction } from "@/lib/model";

import { type MirrorFilter, whereOf } from "./filter";
import { SORT_COLUMNS, type SortColumn } from "./queries";
import { epochMs, fromRow, type MirrorRow } from "./rows";
import type { MirrorStore } from "./store";
import type { Eb } from "./types";

/**
 * Every row of a filter, in the list's order (the sort column, then newest first, then id), read in batches by
 * keyset: each batch starts after the last row of the one before, so rows the sync adds or deletes meanwhile never
 * shift a batch (offset paging would repeat or skip rows then). For exports: memory stays one batch.
 */

const BATCH = 500;

type Sort = { column: SortColumn; direction: "asc" | "desc" };

/** The sort column as compared: the truck may be null, which both stores would order differently. */
const sortExpression = (column: SortColumn) =>
  column === "truck" ? sql<string>`coalesce(truck_id, '')` : sql.ref<string | number>(SORT_COLUMNS[column]);

const sortValue = (row: MirrorRow, column: SortColumn): string | number => {
  if (column === "truck") return row.truck_id ?? "";
  if (column === "at") return epochMs(row.at_ms);
  return row[SORT_COLUMNS[column]];
};

/** The rows after `last` in the order (sort, at_ms desc, id asc). */
function after(eb: Eb, sort: Sort, last: MirrorRow): Expression<SqlBool> {
  const at = epochMs(last.at_ms);
  const sameTimeLaterId = eb.and([eb("at_ms", "=", at), eb("id", ">", last.id)]);
  const timeThenId = eb.or([eb("at_ms", "<", at), sameTimeLaterId]);
  // Each condition starts with a plain bound on the sort column (implied by the OR after it): with it, both stores
  // seek the index to the last row instead of scanning from the range's start on every batch (quadratic in the rows).
  if (sort.column === "at") {
    const beyond = sort.direction === "desc" ? eb("at_ms", "<", at) : eb("at_ms", ">", at);
    const bound = sort.direction === "desc" ? eb("at_ms", "<=", at) : eb("at_ms", ">=", at);
    return eb.and([bound, eb.or([beyond, sameTimeLaterId])]);
  }
  const value = sortValue(last, sort.column);
  const column = sortExpression(sort.column);
  const beyond = sort.direction === "asc" ? sql<SqlBool>`${column} > ${value}` : sql<SqlBool>`${column} < ${value}`;
  const bound = sort.direction === "asc" ? sql<SqlBool>`${column} >= ${value}` : sql<SqlBool>`${column} <= ${value}`;
  return eb.and([bound, eb.or([beyond, eb.and([sql<SqlBool>`${column} = ${value}`, timeThenId])])]);
}

export async function* exportRows(
  store: MirrorStore,
  customerId: string,
  filter: MirrorFilter,
  sort: Sort = { column: "at", direction: "desc" },
): AsyncGenerator<Transaction> {
  let last: MirrorRow | undefined;
  for (;;) {
    const from = last;
    let q = store.db
      .selectFrom("mirror_transactions")
      .selectAll()
      .where((eb) =>
        from === undefined
          ? whereOf(eb, customerId, filter)
          : eb.and([whereOf(eb, customerId, filter), after(eb, sort, from)]),
      );
    if (sort.column !== "at") q = q.orderBy(sortExpression(sort.column), sort.direction).orderBy("at_ms", "desc");
    else q = q.orderBy("at_ms", sort.direction);
    const rows = await q.orderBy("id").limit(BATCH).execute();
    for (const row of rows) yield fromRow(row);
    if (rows.length < BATCH) return;
    last = rows.at(-1);
  }
}
