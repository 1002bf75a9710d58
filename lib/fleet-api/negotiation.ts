import "server-only";

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

export const SCOPE_BY_RESOURCE = { account: "account", transactions: "transactions", locations: "locations" } as const;
export type Resource = keyof typeof SCOPE_BY_RESOURCE;

/** The scope a resource needs, in the upstream's naming as far as we know it. */
export function scopeName(resource: Resource, naming: Variants["scopeNaming"]): string {
  return naming === "read" ? "read" : SCOPE_BY_RESOURCE[resource];
}
