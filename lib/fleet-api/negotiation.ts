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

/** The query value of a `from`/`to` UTC date in the upstream's style. */
export function dateBound(date: string, bound: "from" | "to", style: Variants["dateStyle"]): string {
  if (style === "date") return date;
  return bound === "from" ? `${date}T00:00:00Z` : `${date}T23:59:59.999Z`;
}

export const SCOPE_BY_RESOURCE = { account: "account", transactions: "transactions", locations: "locations" } as const;
export type Resource = keyof typeof SCOPE_BY_RESOURCE;

/** The scope a resource needs, in the upstream's naming as far as we know it. */
export function scopeName(resource: Resource, naming: Variants["scopeNaming"]): string {
  return naming === "read" ? "read" : SCOPE_BY_RESOURCE[resource];
}
