import { z } from "zod";

import { Money, Volume } from "./decimal";

export const Totals30d = z.object({
  transactions: z.number().int().nonnegative(),
  gallons: Volume,
  amount: Money,
  /** Where the totals came from: the upstream's own figures, or computed by us from the transactions. */
  source: z.enum(["upstream", "computed"]),
});
export type Totals30d = z.infer<typeof Totals30d>;

/** The calling customer. `code`, `createdAt` and `totals30d` are null when the upstream's shape lacks them. */
export const Account = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string().nullable(),
  totals30d: Totals30d.nullable(),
});
export type Account = z.infer<typeof Account>;
