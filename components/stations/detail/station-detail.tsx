"use client";

import Link from "next/link";
import type { ReactNode } from "react";

import { Card } from "@/components/ui/card";
import { type DefinitionItem, DefinitionList } from "@/components/ui/definition-list";
import { PageHeader } from "@/components/ui/page-header";
import { DetailError, DetailLoading } from "@/components/ui/query-states";
import { formatDateTime } from "@/lib/format/dates";
import { formatCoordinates, formatUnitPrice } from "@/lib/format/numbers";
import type { StationDetail } from "@/lib/model";
import { useStation } from "@/lib/queries/locations";

import { brandName } from "../shared/brand-name";
import { isStale } from "../shared/price-age";
import { useNow } from "../shared/use-now";
import { FleetTransactionsCard } from "./fleet-transactions";
import { DETAIL_LINK_CLASSES, humanize, renderValue } from "./station-detail-parts";

export function StationDetailView({ id }: { id: string }) {
  const query = useStation(id);
  const backLink = (
    <Link href="/stations" className={DETAIL_LINK_CLASSES}>
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
  return (
    <div>
      <p className="mb-2">{backLink}</p>
      <PageHeader title={s.name}>
        {brandName(s.brand)} · location #{s.locNum} · {s.city}, {s.state}
      </PageHeader>
      <div className="grid gap-6 md:grid-cols-2">
        <PriceCard station={s} />
        <Card title="Station">
          <DefinitionList items={stationItems(s)} />
        </Card>
        <FleetTransactionsCard station={s} />
        {Object.keys(s.extra).length > 0 ? (
          <Card title="More details" className="md:col-span-2">
            <DefinitionList
              items={Object.entries(s.extra)
                .map(([key, value]): DefinitionItem => [humanize(key), renderValue(value)])
                .sort(([a], [b]) => a.localeCompare(b))}
            />
          </Card>
        ) : null}
      </div>
    </div>
  );
}

function stationItems(s: StationDetail): DefinitionItem[] {
  return [
    ["Name", s.name],
    ["Brand", brandName(s.brand)],
    ["Location number", s.locNum],
    ["Address", [s.address, `${s.city}, ${s.state}${s.zip === null ? "" : ` ${s.zip}`}`].filter(Boolean).join(", ")],
    [
      "Phone",
      s.phone === null ? null : (
        <a key="tel" className={DETAIL_LINK_CLASSES} href={`tel:${s.phone.replace(/[^\d+]/g, "")}`}>
          {s.phone}
        </a>
      ),
    ],
    ["DEF", s.defAvailable === null ? null : s.defAvailable ? "Available" : "Not available"],
    ["Amenities", s.amenities.length === 0 ? null : s.amenities.map(humanize).join(", ")],
    ["Coordinates", formatCoordinates(s)],
  ];
}

function PriceCard({ station: s }: { station: StationDetail }) {
  const productPrices = Object.entries(s.prices);
  // Staleness against the time the page is looked at (0 before hydration: not flagged until the browser knows).
  const now = useNow();
  const stale = s.priceUpdatedAt !== null && now > 0 && isStale(s.priceUpdatedAt, now);
  return (
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
      {productPrices.length > 0 ? <ProductPricesTable prices={productPrices} /> : null}
    </Card>
  );
}

function ProductPricesTable({ prices }: { prices: readonly [string, string | null][] }) {
  return (
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
        {prices.map(([product, price]) => (
          <tr key={product}>
            <th scope="row" className="py-0.5 font-normal">
              {humanize(product)}
            </th>
            <td className="py-0.5 text-right tabular-nums">{price === null ? "Not sold" : formatUnitPrice(price)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
