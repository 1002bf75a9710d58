"use client";

import Link from "next/link";

import { Card } from "@/components/ui/card";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { TransactionStatusBadge } from "@/components/ui/status-badge";
import { formatDateTime } from "@/lib/format/dates";
import { formatCount, formatGallons, formatMoney, formatUnitPrice } from "@/lib/format/numbers";
import type { StationDetail, Transaction } from "@/lib/model";
import { STATION_TRANSACTIONS_SCAN, useTransactionsAtStation } from "@/lib/queries/locations";

import { productName } from "../shared/product-ranking";
import { DETAIL_LINK_CLASSES } from "./station-detail-parts";
import { averagesByProduct } from "./station-purchases";

/** Rows of this fleet's transactions shown on the page. */
const RECENT_TRANSACTIONS_SHOWN = 20;

/** This fleet's recent purchases at the station, with the average price paid (amount ÷ gallons, completed and pending). */
export function FleetTransactionsCard({ station }: { station: StationDetail }) {
  const query = useTransactionsAtStation(station.id, station.name);
  return (
    <Card title="Your fleet's recent fuel here" className="md:col-span-2">
      {query.isPending ? (
        <CardSkeleton label="Loading your transactions at this station…" rows={4} className="h-6" />
      ) : query.isError ? (
        <CardError
          error={query.error}
          subject="transactions"
          onRetry={() => void query.refetch()}
          isRetrying={query.isFetching}
        />
      ) : (
        <FleetTransactions
          items={query.data.items}
          scanned={query.data.scanned}
          matchingTotal={query.data.matchingTotal}
        />
      )}
    </Card>
  );
}

/** "The latest 20 of 34 purchases…": how much of the fleet's history the table shows, and where it was looked for. */
function describeShownPurchases(shown: number, total: number, scanned: number, matchingTotal: number): string {
  const source =
    matchingTotal > scanned
      ? ` among your ${String(STATION_TRANSACTIONS_SCAN)} newest transactions that mention this station's name`
      : "";
  return shown < total
    ? `The latest ${formatCount(shown)} of ${formatCount(total)} purchases${source}.`
    : `${total === 1 ? "The one purchase" : `All ${formatCount(total)} purchases`}${source}.`;
}

function FleetTransactions({
  items,
  scanned,
  matchingTotal,
}: {
  items: Transaction[];
  scanned: number;
  matchingTotal: number;
}) {
  if (items.length === 0) {
    return (
      <p className="text-sm text-slate-700 dark:text-slate-300">
        No recent transactions of your fleet at this station.
      </p>
    );
  }
  const shown = items.slice(0, RECENT_TRANSACTIONS_SHOWN);
  return (
    <div className="space-y-3">
      <AveragePaid items={items} />
      <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="station-transactions-count">
        {describeShownPurchases(shown.length, items.length, scanned, matchingTotal)}
      </p>
      <div className="overflow-x-auto">
        <StationTransactionsTable rows={shown} />
      </div>
    </div>
  );
}

function AveragePaid({ items }: { items: readonly Transaction[] }) {
  const averages = averagesByProduct(items);
  return (
    <div className="text-sm text-slate-700 dark:text-slate-300" data-testid="average-paid">
      <p>Average price paid here per product (completed and pending purchases; failed ones left out):</p>
      {averages.length === 0 ? (
        <p>— (every purchase here failed)</p>
      ) : (
        <ul className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
          {averages.map((a) => (
            <li key={a.product} data-testid="average-paid-product">
              {a.name}: <strong className="text-slate-900 dark:text-slate-50">{formatUnitPrice(a.average)}</strong> per
              gallon over {formatCount(a.purchases)} {a.purchases === 1 ? "purchase" : "purchases"}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function StationTransactionsTable({ rows }: { rows: readonly Transaction[] }) {
  return (
    <table className="w-full text-left text-sm" data-testid="station-transactions">
      <thead className="text-xs text-slate-600 dark:text-slate-400">
        <tr>
          <th scope="col" className="pb-1 pr-3 font-medium">
            When
          </th>
          <th scope="col" className="pb-1 pr-3 font-medium">
            Status
          </th>
          <th scope="col" className="pb-1 pr-3 font-medium">
            Driver
          </th>
          <th scope="col" className="pb-1 pr-3 font-medium">
            Product
          </th>
          <th scope="col" className="pb-1 pr-3 text-right font-medium">
            Gallons
          </th>
          <th scope="col" className="pb-1 pr-3 text-right font-medium">
            Price
          </th>
          <th scope="col" className="pb-1 text-right font-medium">
            Amount
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
        {rows.map((t) => (
          <tr key={t.id} data-testid="station-transaction-row">
            <td className="py-1.5 pr-3">
              <Link href={`/transactions/${encodeURIComponent(t.id)}`} className={DETAIL_LINK_CLASSES}>
                {formatDateTime(t.at)}
              </Link>
            </td>
            <td className="py-1.5 pr-3">
              <TransactionStatusBadge status={t.status} />
            </td>
            <td className="py-1.5 pr-3">{t.driver.name}</td>
            <td className="py-1.5 pr-3">{productName(t.product.toLowerCase())}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{formatGallons(t.gallons)}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{formatUnitPrice(t.pricePerGallon)}</td>
            <td className="py-1.5 text-right tabular-nums">{formatMoney(t.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
