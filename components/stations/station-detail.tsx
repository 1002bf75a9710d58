"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { StationDetail, Transaction } from "@/lib/model";
import { useStation, useTransactionsAtStation, STATION_TRANSACTIONS_SCAN } from "@/lib/queries/locations";
import { formatCount, formatGallons, formatMoney, formatUnitPrice } from "@/lib/format/numbers";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { formatDateTime } from "@/lib/format/dates";
import { Card } from "@/components/ui/card";
import { DetailError, DetailLoading } from "@/components/ui/query-states";
import { PageHeader } from "@/components/ui/page-header";
import { brandName } from "./format";
import { productName } from "./product-ranking";
import { averagesByProduct } from "./station-purchases";
import { useNow } from "./use-now";
import { isStale } from "./view-state";

const LINK_CLASSES =
  "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300 dark:hover:text-brand-200";
/** Rows of this fleet's transactions shown on the page. */
const RECENT_TRANSACTIONS_SHOWN = 20;

export function StationDetailView({ id }: { id: string }) {
  const query = useStation(id);
  const backLink = (
    <Link href="/stations" className={LINK_CLASSES}>
      <span aria-hidden="true">← </span>Back to stations
    </Link>
  );

  if (query.isError) {
    if (query.error.status === 404) {
      return (
        <div>
          <PageHeader title="Station not found">
            No station with this id is in the catalog. The link may be mistyped or the station closed.
          </PageHeader>
          {backLink}
        </div>
      );
    }
    return (
      <DetailError
        title="Station"
        subject="stations"
        error={query.error}
        onRetry={() => void query.refetch()}
        isRetrying={query.isFetching}
        backLink={backLink}
      />
    );
  }
  if (query.isPending) return <DetailLoading title="Station" label="Loading the station…" backLink={backLink} />;
  return <Detail station={query.data} backLink={backLink} />;
}

function Detail({ station: s, backLink }: { station: StationDetail; backLink: ReactNode }) {
  const productPrices = Object.entries(s.prices);
  // Staleness against the time the page is looked at (0 before hydration: not flagged until the browser knows).
  const now = useNow();
  const stale = s.priceUpdatedAt !== null && now > 0 && isStale(s.priceUpdatedAt, now);
  return (
    <div>
      <p className="mb-2">{backLink}</p>
      <PageHeader title={s.name}>
        {brandName(s.brand)} · location #{s.locNum} · {s.city}, {s.state}
      </PageHeader>
      <div className="grid gap-6 md:grid-cols-2">
        <Card title="Price">
          <DefinitionList
            items={[
              [
                "Your price",
                s.price === null ? null : (
                  <span key="p" data-testid="detail-price" className="font-semibold">
                    {formatUnitPrice(s.price)} per gallon
                  </span>
                ),
              ],
              [
                "Updated",
                s.priceUpdatedAt === null ? null : (
                  <span key="u">
                    {formatDateTime(s.priceUpdatedAt)}
                    {stale ? " — stale (older than 2 days)" : ""}
                  </span>
                ),
              ],
            ]}
          />
          {productPrices.length > 0 ? (
            <table className="mt-4 w-full text-left text-sm" data-testid="product-prices">
              <caption className="mb-1 text-left text-sm font-medium text-slate-800 dark:text-slate-200">
                Prices per product
              </caption>
              <thead className="text-xs text-slate-600 dark:text-slate-400">
                <tr>
                  <th scope="col" className="pb-1 font-medium">
                    Product
                  </th>
                  <th scope="col" className="pb-1 text-right font-medium">
                    Price per gallon
                  </th>
                </tr>
              </thead>
              <tbody>
                {productPrices.map(([product, price]) => (
                  <tr key={product}>
                    <th scope="row" className="py-0.5 font-normal">
                      {humanize(product)}
                    </th>
                    <td className="py-0.5 text-right tabular-nums">
                      {price === null ? "Not sold" : formatUnitPrice(price)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </Card>
        <Card title="Station">
          <DefinitionList
            items={[
              ["Name", s.name],
              ["Brand", brandName(s.brand)],
              ["Location number", s.locNum],
              [
                "Address",
                [s.address, `${s.city}, ${s.state}${s.zip === null ? "" : ` ${s.zip}`}`].filter(Boolean).join(", "),
              ],
              [
                "Phone",
                s.phone === null ? null : (
                  <a key="tel" className={LINK_CLASSES} href={`tel:${s.phone.replace(/[^\d+]/g, "")}`}>
                    {s.phone}
                  </a>
                ),
              ],
              ["DEF", s.defAvailable === null ? null : s.defAvailable ? "Available" : "Not available"],
              ["Amenities", s.amenities.length === 0 ? null : s.amenities.map(humanize).join(", ")],
              ["Coordinates", `${s.lat.toFixed(4)}, ${s.lng.toFixed(4)}`],
            ]}
          />
        </Card>
        <FleetTransactionsCard station={s} />
        {Object.keys(s.extra).length > 0 ? (
          <Card title="More details" className="md:col-span-2">
            <DefinitionList
              items={Object.entries(s.extra)
                .map(([key, value]): Item => [humanize(key), renderValue(value)])
                .sort(([a], [b]) => a.localeCompare(b))}
            />
          </Card>
        ) : null}
      </div>
    </div>
  );
}

/** This fleet's recent purchases at the station, with the average price paid (amount ÷ gallons, completed and pending). */
function FleetTransactionsCard({ station }: { station: StationDetail }) {
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
  const averages = averagesByProduct(items);
  const shown = items.slice(0, RECENT_TRANSACTIONS_SHOWN);
  const source =
    matchingTotal > scanned
      ? ` among your ${String(STATION_TRANSACTIONS_SCAN)} newest transactions that mention this station's name`
      : "";
  return (
    <div className="space-y-3">
      <div className="text-sm text-slate-700 dark:text-slate-300" data-testid="average-paid">
        <p>Average price paid here per product (completed and pending purchases; failed ones left out):</p>
        {averages.length === 0 ? (
          <p>— (every purchase here failed)</p>
        ) : (
          <ul className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
            {averages.map((a) => (
              <li key={a.product} data-testid="average-paid-product">
                {a.name}: <strong className="text-slate-900 dark:text-slate-50">{formatUnitPrice(a.average)}</strong>{" "}
                per gallon over {formatCount(a.purchases)} {a.purchases === 1 ? "purchase" : "purchases"}
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="station-transactions-count">
        {shown.length < items.length
          ? `The latest ${formatCount(shown.length)} of ${formatCount(items.length)} purchases${source}.`
          : `${items.length === 1 ? "The one purchase" : `All ${formatCount(items.length)} purchases`}${source}.`}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="station-transactions">
          <thead className="text-xs text-slate-600 dark:text-slate-400">
            <tr>
              <th scope="col" className="pb-1 pr-3 font-medium">
                When
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
            {shown.map((t) => (
              <tr key={t.id} data-testid="station-transaction-row">
                <td className="py-1.5 pr-3">
                  <Link href={`/transactions/${encodeURIComponent(t.id)}`} className={LINK_CLASSES}>
                    {formatDateTime(t.at)}
                  </Link>
                  {t.status === "completed" ? null : (
                    <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">({t.status})</span>
                  )}
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
      </div>
    </div>
  );
}

type Item = readonly [label: string, value: ReactNode];

/** Label/value pairs; a missing value reads "Not provided" rather than leaving a gap. */
function DefinitionList({ items }: { items: readonly Item[] }) {
  return (
    <dl className="grid grid-cols-[minmax(7rem,auto)_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
          <dd className="min-w-0 wrap-anywhere text-slate-900 dark:text-slate-100">
            {value === null || value === "" ? (
              <span className="text-slate-600 dark:text-slate-400">Not provided</span>
            ) : (
              value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** "tire_service" → "Tire service". */
function humanize(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function renderValue(value: unknown): ReactNode {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return <code className="break-all font-mono text-xs">{JSON.stringify(value)}</code>;
}
