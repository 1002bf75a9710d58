import type { CreateTableBuilder } from "kysely";

/**
 * The sums every rollup row of purchases holds (the local-day rows and their blocks): how many, gallons and amount,
 * and the DEF part of both, in thousandths of a gallon and cents. One definition for both tables' migrations.
 */
export function withPurchaseSums<T extends string, C extends string>(
  table: CreateTableBuilder<T, C>,
  int8: "bigint" | "integer",
) {
  return table
    .addColumn("n", "integer", (c) => c.notNull())
    .addColumn("gallons_milli", int8, (c) => c.notNull())
    .addColumn("amount_cents", int8, (c) => c.notNull())
    .addColumn("def_gallons_milli", int8, (c) => c.notNull())
    .addColumn("def_amount_cents", int8, (c) => c.notNull());
}
