import { createColumnHelper } from "@tanstack/react-table";
import type { Transaction } from "@/lib/model";
import { formatGallons, formatMoney, formatUnitPrice } from "@/components/format/numbers";
import { describeOffset, formatDateTime } from "./format-date-time";
import { TransactionStatusBadge } from "./status-badge";

const column = createColumnHelper<Transaction>();

const MUTED = "text-slate-600 dark:text-slate-400";

/** Right-aligned figures in tabular digits, so columns of amounts line up. */
export const NUMERIC_COLUMNS: ReadonlySet<string> = new Set(["gallons", "pricePerGallon", "amount"]);

export const transactionColumns = [
  column.accessor("at", {
    id: "at",
    header: "Date-time",
    cell: ({ getValue }) => (
      <time dateTime={getValue()} title={describeOffset(getValue())} className="whitespace-nowrap">
        {formatDateTime(getValue())}
      </time>
    ),
  }),
  column.accessor("status", { id: "status", header: "Status", cell: ({ getValue }) => <TransactionStatusBadge status={getValue()} /> }),
  column.accessor("product", { id: "product", header: "Product" }),
  column.accessor("gallons", { id: "gallons", header: "Gallons", cell: ({ getValue }) => formatGallons(getValue()) }),
  column.accessor("pricePerGallon", { id: "pricePerGallon", header: "Price/gal", cell: ({ getValue }) => formatUnitPrice(getValue()) }),
  column.accessor("amount", { id: "amount", header: "Amount", cell: ({ getValue }) => formatMoney(getValue()) }),
  column.accessor("station", {
    id: "station",
    header: "Station",
    cell: ({ getValue }) => (
      <>
        <span className="block">{getValue().name}</span>
        <span className={`block text-xs ${MUTED}`}>
          {getValue().city}, {getValue().state}
        </span>
      </>
    ),
  }),
  column.accessor("driver", {
    id: "driver",
    header: "Driver",
    cell: ({ getValue }) => (
      <>
        <span className="block" data-testid="driver-name">
          {getValue().name}
        </span>
        {getValue().truckId === null ? null : <span className={`block text-xs ${MUTED}`}>Truck {getValue().truckId}</span>}
      </>
    ),
  }),
  column.accessor("card", {
    id: "card",
    header: "Card",
    cell: ({ getValue }) => (
      <span className="whitespace-nowrap">
        <span aria-hidden="true">•••• </span>
        <span className="sr-only">ending in </span>
        {getValue().last4}
      </span>
    ),
  }),
  column.accessor("def", {
    id: "def",
    header: "DEF",
    cell: ({ getValue }) => {
      const def = getValue();
      if (def === null)
        return (
          <>
            <span aria-hidden="true">—</span>
            <span className="sr-only">None</span>
          </>
        );
      return (
        <span className="whitespace-nowrap">
          {formatGallons(def.gallons)} gal / {formatMoney(def.amount)}
        </span>
      );
    },
  }),
];
