import { averagePricePerGallon, fromMinorUnits, type SummaryTotals } from "@/lib/model";
import { statusesOf } from "@/lib/model/metrics";

import { whereOf } from "./filter";
import { groupSums, type SumSource } from "./rollup-reads";
import { exactInteger } from "./rows";
import type { MirrorStore } from "./store";
import type { InstantRange } from "./types";

/**
 * A period's totals alone (the summary's `previous`): one sum over the range, completed and pending (failed is not
 * spend), the rule the summary's totals follow.
 */
export async function periodTotals(
  store: MirrorStore,
  customerId: string,
  range: InstantRange,
): Promise<SummaryTotals> {
  const row = await store.db
    .selectFrom("mirror_transactions")
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.sum("gallons_milli").as("g"), eb.fn.sum("amount_cents").as("a")])
    .where((eb) => eb.and([whereOf(eb, customerId, range), eb("status", "in", [...statusesOf("charged")])]))
    .executeTakeFirstOrThrow();
  const gallons = exactInteger(row.g);
  const amount = exactInteger(row.a);
  return {
    transactions: Number(exactInteger(row.n)),
    gallons: fromMinorUnits(gallons, 3),
    amount: fromMinorUnits(amount, 2),
    averagePricePerGallon: averagePricePerGallon(amount, gallons),
  };
}

/**
 * The same totals of a whole period, unfiltered (the overview's previous period), from the UTC rollups' product sums
 * (whole days and 4-, 16- and 128-day periods, the rows of partial days at the ends: ./rollup-reads.ts) instead of a
 * scan of the period's purchases; `source: "rows"` sums the rows (the test's reference). Exactly periodTotals' figures.
 */
export async function spendTotals(
  store: MirrorStore,
  customerId: string,
  range: { fromMs: number; toMs: number },
  source: SumSource = "rollups",
): Promise<SummaryTotals> {
  const products = await groupSums(store, customerId, "product", range, source);
  const gallons = products.reduce((g, p) => g + p.gallons, 0n);
  const amount = products.reduce((a, p) => a + p.amount, 0n);
  return {
    transactions: products.reduce((n, p) => n + p.transactions, 0),
    gallons: fromMinorUnits(gallons, 3),
    amount: fromMinorUnits(amount, 2),
    averagePricePerGallon: averagePricePerGallon(amount, gallons),
  };
}
