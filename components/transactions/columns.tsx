import { createColumnHelper, type RowData } from "@tanstack/react-table";

import { EntityLink } from "@/components/ui/entity-link";
import { TransactionStatusBadge } from "@/components/ui/status-badge";
import { describeOffset, formatDateTime } from "@/lib/format/dates";
import { formatGallons, formatMoney, formatUnitPrice } from "@/lib/format/numbers";
import type { Transaction } from "@/lib/model";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type parameter must match TanStack's declaration to merge
  interface TableMeta<TData extends RowData> {
    /** The zone the list shows times in (transactions-table sets it from the view). */
    timeZone?: string;
  }
}

const column = createColumnHelper<Transaction>();

const MUTED = "text-slate-600 dark:text-slate-400";

/** Figures: right-aligned in tabular digits (DataTable), so columns of amounts line up. */
const NUMERIC = { numeric: true };

// On a phone each row is a card (DataTable): when, where, who, how much and its status first (issue 26); the rest of
// the figures are a tap away on the transaction's page.

export const transactionColumns = [
  column.accessor("at", {
    id: "at",
    header: "Date-time",
    meta: { card: "title" },
    cell: ({ getValue, table }) => {
      // The list's zone (the table's meta, set by transactions-table); the remembered or browser zone otherwise.
      const zone = table.options.meta?.timeZone;
      return (
        <time dateTime={getValue()} title={describeOffset(getValue(), zone)} className="whitespace-nowrap">
          {formatDateTime(getValue(), zone)}
        </time>
      );
    },
  }),
  column.accessor("status", {
    id: "status",
    header: "Status",
    meta: { card: "primary" },
    cell: ({ getValue }) => <TransactionStatusBadge status={getValue()} />,
  }),
  column.accessor("product", { id: "product", header: "Product", meta: { card: "secondary" } }),
  column.accessor("gallons", {
    id: "gallons",
    header: "Gallons",
    meta: { ...NUMERIC, card: "secondary" },
    cell: ({ getValue }) => formatGallons(getValue()),
  }),
  column.accessor("pricePerGallon", {
    id: "pricePerGallon",
    header: "Price/gal",
    meta: { ...NUMERIC, card: false },
    cell: ({ getValue }) => formatUnitPrice(getValue()),
  }),
  column.accessor("amount", {
    id: "amount",
    header: "Amount",
    meta: { ...NUMERIC, card: "primary" },
    cell: ({ getValue }) => formatMoney(getValue()),
  }),
  column.accessor("station", {
    id: "station",
    header: "Station",
    meta: { card: "primary" },
    cell: ({ getValue }) => (
      <>
        <span className="block">
          <EntityLink kind="station" id={getValue().id} inCell>
            {getValue().name}
          </EntityLink>
        </span>
        <span className={`block text-xs ${MUTED}`}>
          {getValue().city}, {getValue().state}
        </span>
      </>
    ),
  }),
  column.accessor("driver", {
    id: "driver",
    header: "Driver",
    meta: { card: "primary" },
    cell: ({ getValue }) => (
      <>
        <span className="block" data-testid="driver-name">
          <EntityLink kind="driver" id={getValue().id} inCell>
            {getValue().name}
          </EntityLink>
        </span>
        {getValue().truckId === null ? null : (
          <span className={`block text-xs ${MUTED}`}>
            Truck{" "}
            <EntityLink kind="truck" id={getValue().truckId ?? ""} inCell>
              {getValue().truckId}
            </EntityLink>
          </span>
        )}
      </>
    ),
  }),
  column.accessor("card", {
    id: "card",
    header: "Card",
    meta: { card: false },
    cell: ({ getValue }) => (
      <span className="whitespace-nowrap">
        <EntityLink kind="card" id={getValue().last4} inCell label={`Card ending in ${getValue().last4}`}>
          <span aria-hidden="true">•••• </span>
          {getValue().last4}
        </EntityLink>
      </span>
    ),
  }),
  column.accessor("def", {
    id: "def",
    header: "DEF",
    meta: { card: false },
    // Not a sort column of the BFF (lib/model/mirror-replies LIST_SORT_COLUMNS).
    enableSorting: false,
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
