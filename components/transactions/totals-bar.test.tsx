import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { ListTotals } from "@/lib/model/list-totals";
import { NO_MIRROR_FILTERS } from "@/lib/queries/transaction-filters";
import type { TransactionTotalsParams } from "@/lib/queries/transactions";

import { TotalsBar } from "./totals-bar";

// The totals bar's caption says what it sums for the list's Status filter (issue 25 item 1): failed purchases are not
// counted under "Completed and pending", Status = Completed says "Completed purchases", and Status = Failed never shows
// $0.00 under a caption that seems to add up the rows. Rendered to HTML on the server, as the page's first paint is
// (no DOM environment in this project), from a query cache holding the BFF's reply (no network: the reply's shape is
// lib/model's contract, and the BFF's sums have their own tests over the sandbox).

function render(chosen: Partial<TransactionTotalsParams>, listTotal: number, totals: ListTotals): string {
  const filters: TransactionTotalsParams = { ...NO_FILTERS, ...chosen };
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  // The key lib/queries/transactions gives the totals query (`transactionKeys.totals`).
  client.setQueryData(["transactions", "totals", filters], totals);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <TotalsBar filters={filters} isFromMirror listTotal={listTotal} isListError={false} />
    </QueryClientProvider>,
  );
  // Text only, one space between elements: what a reader (and a screen reader) gets.
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

const NO_FILTERS: TransactionTotalsParams = {
  from: null,
  to: null,
  tz: "UTC",
  status: null,
  search: "",
  mirror: NO_MIRROR_FILTERS,
};

const summed = (over: Partial<Extract<ListTotals, { state: "summed" }>>): ListTotals => ({
  state: "summed",
  transactions: 10,
  failed: 0,
  gallons: "500.000",
  amount: "2000.00",
  ...over,
});

describe("the totals bar's caption per Status filter", () => {
  it("without a status filter, counts every row under Purchases and says gallons and amount leave the failed ones out", () => {
    const text = render({ from: "2026-05-01", to: "2026-05-31" }, 10, summed({ failed: 2 }));
    expect(text).toContain("Purchases (any status) 10");
    expect(text).toContain("Amount charged $2,000.00");
    expect(text).toContain("the 2 failed ones too; gallons and amount add up the completed and pending ones only");
    expect(text).not.toContain("Completed and pending purchases");
  });

  it("with Status = Completed, says completed purchases, not completed and pending", () => {
    const text = render({ status: "completed" }, 8, summed({ transactions: 8 }));
    expect(text).toContain("Completed purchases 8");
    expect(text).toContain("Completed purchases: the rows' gallons and amount, added up.");
    expect(text).not.toMatch(/completed and pending/i);
  });

  it("with Status = Pending, says the amounts may still change", () => {
    const text = render({ status: "pending" }, 3, summed({ transactions: 3 }));
    expect(text).toContain("Pending purchases 3");
    expect(text).toContain("may still change");
  });

  it("with Status = Failed, shows no $0.00 and says plainly that failed purchases are not charged", () => {
    const text = render(
      { status: "failed" },
      4,
      summed({ transactions: 4, failed: 4, gallons: "0.000", amount: "0.00" }),
    );
    expect(text).toContain("Failed purchases 4");
    expect(text).toContain("Amount charged None charged");
    expect(text).not.toContain("$0.00");
    expect(text).toContain("Failed purchases are not charged");
  });
});
