import { averagePricePerGallon, fromMinorUnits, type SummaryTotals } from "@/lib/model";
import { statusesOf } from "@/lib/model/metrics";

import { whereOf } from "./filter";
import { exactInteger } from "./rows";
import type { InstantRange, MirrorStore } from "./store";

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
