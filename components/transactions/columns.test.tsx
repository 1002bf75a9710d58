import { getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { DataTable } from "@/components/ui/data-table";
import type { Transaction } from "@/lib/model";

import { transactionColumns } from "./columns";

// Every driver, truck, card and station name in the list links to its own page (issue 16's drill-downs). Rendered to
// HTML on the server, as the page's first paint is (no DOM environment in this project).

const ROW: Transaction = {
  id: "tx-1",
  reference: "FF0000000001",
  at: "2026-03-31T23:30:00-05:00",
  localOffsetMinutes: -300,
  status: "completed",
  product: "diesel",
  gallons: "100.000",
  pricePerGallon: "3.999",
  amount: "399.90",
  station: { id: "st 7/a", name: "Pilot #7", locNum: "007", city: "Joplin", state: "MO" },
  driver: { id: "D-1042", name: "Ann Lee", truckId: "T-17" },
  card: { last4: "4821" },
  def: null,
};

function Table() {
  // eslint-disable-next-line react-hooks/incompatible-library -- as in the app: no React Compiler here
  const table = useReactTable({ data: [ROW], columns: transactionColumns, getCoreRowModel: getCoreRowModel() });
  return <DataTable table={table} caption="Transactions" />;
}

describe("the transactions table's names", () => {
  it("link to the driver's, truck's, card's and station's pages", () => {
    const html = renderToStaticMarkup(<Table />);
    expect(html).toContain('href="/drivers/D-1042"');
    expect(html).toContain('href="/trucks/T-17"');
    expect(html).toContain('href="/cards/4821"');
    expect(html).toContain('aria-label="Card ending in 4821"');
    // Ids are written into the path safely.
    expect(html).toContain('href="/stations/st%207%2Fa"');
  });
});
