"use client";

import type { Route } from "next";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import type { ReactNode } from "react";

import { Card } from "@/components/ui/card";
import { type DefinitionItem, DefinitionList } from "@/components/ui/definition-list";
import { EntityLink } from "@/components/ui/entity-link";
import { PageHeader } from "@/components/ui/page-header";
import { DetailError, DetailLoading } from "@/components/ui/query-states";
import { TransactionStatusBadge } from "@/components/ui/status-badge";
import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import { useHydrated } from "@/components/ui/use-hydrated";
import { describeOffset, formatDateTime } from "@/lib/format/dates";
import { formatGallons, formatMoney, formatUnitPrice } from "@/lib/format/numbers";
import type { Extra, TransactionDetail } from "@/lib/model";
import { UTC_ZONE } from "@/lib/model/time-zones";
import { useTransaction } from "@/lib/queries/transactions";

import { parseListState, serializeListState } from "./list-state";

/**
 * The list the user came from: `?back=` carries its query string. It is re-read through the list's own parser, so
 * the link can only ever lead to `/transactions` with known parameters (never another site or path).
 */
function useBackHref(): Route {
  const back = useSearchParams().get("back");
  if (back === null) return "/transactions";
  const query = serializeListState(parseListState(new URLSearchParams(back)));
  return query === "" ? "/transactions" : `/transactions?${query}`;
}

/**
 * `initial`: the transaction as the server's page looked it up (undefined when it did not wait for it), so the first
 * HTML already shows it.
 */
export function TransactionDetailView({ id, initial }: { id: string; initial?: TransactionDetail | undefined }) {
  const query = useTransaction(id, initial);
  const backHref = useBackHref();
  const backLink = (
    <Link href={backHref} className={TEXT_LINK_CLASSES}>
      <span aria-hidden="true">← </span>Back to transactions
    </Link>
  );

  if (query.isError) {
    if (query.error.status === 404) {
      return (
        <div>
          <PageHeader title="Transaction not found">
            No transaction with this reference exists on your account. It may belong to another customer, or the link
            may be mistyped.
          </PageHeader>
          {backLink}
        </div>
      );
    }
    return (
      <DetailError
        title="Transaction"
        subject="transactions"
        error={query.error}
        onRetry={() => void query.refetch()}
        isRetrying={query.isFetching}
        backLink={backLink}
      />
    );
  }

  if (query.isPending)
    return <DetailLoading title="Transaction" label="Loading the transaction…" backLink={backLink} />;

  return <Detail transaction={query.data} backLink={backLink} />;
}

function Detail({ transaction: t, backLink }: { transaction: TransactionDetail; backLink: ReactNode }) {
  return (
    <div>
      <p className="mb-2">{backLink}</p>
      <PageHeader title={`Transaction ${t.reference}`}>
        <span className="flex flex-wrap items-center gap-3">
          <TransactionStatusBadge status={t.status} />
          <Time iso={t.at} />
        </span>
      </PageHeader>
      <div className="grid gap-6 md:grid-cols-2">
        <PurchaseCards t={t} />
        <PartiesCards t={t} />
        <RecordCards t={t} />
      </div>
    </div>
  );
}

/** What was bought: the fuel, and the diesel exhaust fluid with it. */
function PurchaseCards({ t }: { t: TransactionDetail }) {
  return (
    <>
      <Card title="Purchase">
        <DefinitionList
          items={[
            [
              "Amount",
              <span key="amount" data-testid="detail-amount">
                {formatMoney(t.amount)}
              </span>,
            ],
            ["Product", t.product],
            ["Gallons", formatGallons(t.gallons)],
            ["Price per gallon", formatUnitPrice(t.pricePerGallon)],
            ["Reference", t.reference],
            ["Source", t.source],
          ]}
        />
      </Card>
      <Card title="Diesel exhaust fluid (DEF)">
        {t.def === null ? (
          <p className="text-sm text-slate-700 dark:text-slate-300">No DEF on this purchase.</p>
        ) : (
          <DefinitionList
            items={[
              ["Gallons", formatGallons(t.def.gallons)],
              ["Amount", formatMoney(t.def.amount)],
              ["Category", t.def.category],
            ]}
          />
        )}
      </Card>
    </>
  );
}

/** Where, and who with which card. */
function PartiesCards({ t }: { t: TransactionDetail }) {
  const cityLine = `${t.station.city}, ${t.station.state}${t.station.zip === null ? "" : ` ${t.station.zip}`}`;
  return (
    <>
      <Card title="Station">
        <DefinitionList
          items={[
            [
              "Name",
              <EntityLink key="station" kind="station" id={t.station.id}>
                {t.station.name}
              </EntityLink>,
            ],
            ["Location number", t.station.locNum],
            ["Address", [t.station.address, cityLine].filter(Boolean).join(", ")],
          ]}
        />
      </Card>
      <Card title="Driver and card">
        <DefinitionList
          items={[
            [
              "Driver",
              <EntityLink key="driver" kind="driver" id={t.driver.id}>
                {t.driver.name}
              </EntityLink>,
            ],
            [
              "E-mail",
              t.driver.email === null ? null : (
                <a key="email" className={TEXT_LINK_CLASSES} href={`mailto:${t.driver.email}`}>
                  {t.driver.email}
                </a>
              ),
            ],
            [
              "Truck",
              t.driver.truckId === null ? null : (
                <EntityLink key="truck" kind="truck" id={t.driver.truckId}>
                  {t.driver.truckId}
                </EntityLink>
              ),
            ],
            [
              "Card",
              <EntityLink key="card" kind="card" id={t.card.last4} label={`Card ending in ${t.card.last4}`}>
                •••• {t.card.last4}
              </EntityLink>,
            ],
            ["Card type", t.card.type],
          ]}
        />
      </Card>
    </>
  );
}

/** The record itself, each card only when the upstream sent something for it. */
function RecordCards({ t }: { t: TransactionDetail }) {
  return (
    <>
      {t.createdAt !== null || t.updatedAt !== null ? (
        <Card title="Timestamps">
          <DefinitionList
            items={[
              ["Purchased", <Time key="at" iso={t.at} />],
              ["Recorded", t.createdAt === null ? null : <Time key="created" iso={t.createdAt} />],
              ["Last updated", t.updatedAt === null ? null : <Time key="updated" iso={t.updatedAt} />],
            ]}
          />
        </Card>
      ) : null}
      {t.audit !== null && Object.keys(t.audit).length > 0 ? (
        <Card title="Audit">
          <ExtraList extra={t.audit} />
        </Card>
      ) : null}
      {Object.keys(t.extra).length > 0 ? (
        <Card title="More details" className="md:col-span-2">
          <ExtraList extra={t.extra} />
        </Card>
      ) : null}
    </>
  );
}

/**
 * In the reader's zone (lib/format/time-zone-preference), which only the browser knows: the server's HTML and the
 * hydrating render show UTC, so the two agree (React's hydration error #418 otherwise), and the next render the zone.
 */
function Time({ iso }: { iso: string }) {
  const zone = useHydrated() ? undefined : UTC_ZONE;
  return (
    <time dateTime={iso} title={describeOffset(iso, zone)}>
      {formatDateTime(iso, zone)}
    </time>
  );
}

/** "fuel_grade" → "Fuel grade". */
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
  return <code className="font-mono text-xs break-all">{JSON.stringify(value)}</code>;
}

/** Fields the upstream sent that the model has no place for, shown generically, sorted by label. */
function ExtraList({ extra }: { extra: Extra }) {
  const items = Object.entries(extra)
    .map(([key, value]): DefinitionItem => [humanize(key), renderValue(value)])
    .sort(([a], [b]) => a.localeCompare(b));
  return <DefinitionList items={items} />;
}
