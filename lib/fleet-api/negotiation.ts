import "server-only";

import type { StationFilter, TransactionFilter } from "@/lib/model";

/**
 * Request variants the spec documents two forms of. We try the primary form, and when the upstream answers 400
 * naming that parameter we switch to the alternative and remember the choice per upstream (base URL) for the
 * life of the process.
 */
export interface Variants {
  /** `from`/`to` as ISO dates (primary) or ISO 8601 datetimes (alternative). */
  dateStyle: "date" | "datetime";
  /** Locations search parameter: `search` (primary) or `q` (alternative). */
  locationSearch: "search" | "q";
  /** How the upstream names scopes: `read` (primary) or `account`/`transactions`/`locations` (alternative). */
  scopeNaming: "read" | "granular" | "unknown";
}

const byUpstream = new Map<string, Variants>();

export function variantsFor(baseUrl: string): Variants {
  let v = byUpstream.get(baseUrl);
  if (!v) {
    v = { dateStyle: "date", locationSearch: "search", scopeNaming: "unknown" };
    byUpstream.set(baseUrl, v);
  }
  return v;
}

/** Tests only: forget what was learned. */
export function resetVariants(): void {
  byUpstream.clear();
}

/**
 * The query value of a `from`/`to` bound in the upstream's style. A UTC date goes as the date, or as its first/last
 * millisecond. An instant (a day of another zone, say) goes as it is where the upstream takes datetimes, and as the
 * UTC day it falls on where it takes dates only: the covering days, a superset the caller must say it asked for.
 */
export function dateBound(value: string, bound: "from" | "to", style: Variants["dateStyle"]): string {
  const isInstant = value.length > "YYYY-MM-DD".length;
  if (style === "date") return isInstant ? new Date(value).toISOString().slice(0, 10) : value;
  if (isInstant) return new Date(value).toISOString();
  return bound === "from" ? `${value}T00:00:00Z` : `${value}T23:59:59.999Z`;
}

const SCOPE_BY_RESOURCE = { account: "account", transactions: "transactions", locations: "locations" } as const;
export type Resource = keyof typeof SCOPE_BY_RESOURCE;

/** The scope a resource needs, in the upstream's naming as far as we know it. */
export function scopeName(resource: Resource, naming: Variants["scopeNaming"]): string {
  return naming === "read" ? "read" : SCOPE_BY_RESOURCE[resource];
}

/**
 * Asked once per call whether a 400 naming `field` is a request variant it can switch: if so it switches `shared` (the
 * upstream's remembered forms) away from `used` (the forms of the refused request) and returns how to switch back.
 */
export type Negotiate = (field: string | undefined, used: Variants, shared: Variants) => (() => void) | undefined;

/** A list request's query in the upstream's current forms, and how to switch a form it refuses. */
export interface VariantQuery {
  build: (variants: Variants) => URLSearchParams;
  negotiate?: Negotiate;
}

type Paged = { page?: number; limit?: number };

const pageParams = (query: Paged): URLSearchParams => {
  const params = new URLSearchParams();
  if (query.page !== undefined) params.set("page", String(query.page));
  if (query.limit !== undefined) params.set("limit", String(query.limit));
  return params;
};

/** GET /transactions: dated queries may switch between date and datetime bounds. */
export function transactionQuery(query: TransactionFilter & Paged): VariantQuery {
  const hasDates = query.from !== undefined || query.to !== undefined;
  return {
    build: (v) => {
      const params = pageParams(query);
      if (query.from !== undefined) params.set("from", dateBound(query.from, "from", v.dateStyle));
      if (query.to !== undefined) params.set("to", dateBound(query.to, "to", v.dateStyle));
      if (query.status !== undefined) params.set("status", query.status);
      if (query.search !== undefined) params.set("search", query.search);
      return params;
    },
    negotiate: (field, used, shared) => {
      if (!hasDates || (field !== "from" && field !== "to")) return undefined;
      shared.dateStyle = used.dateStyle === "date" ? "datetime" : "date";
      return () => {
        shared.dateStyle = used.dateStyle;
      };
    },
  };
}

/** GET /locations: a search may switch between the `search` and `q` parameter. */
export function locationQuery(query: StationFilter & Paged): VariantQuery {
  return {
    build: (v) => {
      const params = pageParams(query);
      if (query.brand !== undefined) params.set("brand", query.brand);
      if (query.state !== undefined) params.set("state", query.state);
      if (query.search !== undefined) params.set(v.locationSearch, query.search);
      return params;
    },
    negotiate: (field, used, shared) => {
      if (query.search === undefined || field !== used.locationSearch) return undefined;
      shared.locationSearch = used.locationSearch === "search" ? "q" : "search";
      return () => {
        shared.locationSearch = used.locationSearch;
      };
    },
  };
}
