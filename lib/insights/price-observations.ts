import type { CatalogStation, MirrorCatalog, PriceRecord } from "@/lib/mirror";

/**
 * Which customer price a station had at an instant, from what the catalog walks observed (issue 25 item 3): never
 * today's price for an older fill. A price record says "price P since `updatedMs`" (the upstream's price_updated_at)
 * and a walk saw it at `seenMs`; the station's latest record was seen again by every walk up to the station's
 * `lastSeenMs` (a walk records a price only when it changed). So each record is an observed span
 * [updatedMs, last walk that saw it]: the upstream's own stamp says the price did not change in between. An older
 * record's span ends at the walk that first saw it (walks in between saw it too but are not recorded: the span is
 * shorter than the truth, never longer). Between spans, and before the first or after the last walk, the price is
 * unknown: a fill there is compared with the nearest span's price only when that span lies within the window
 * (PRICE_WINDOW_HOURS, default 24 h) of the fill, otherwise it is "not compared".
 */

/** A price observed to hold from `fromMs` to `toMs` (both inclusive, epoch ms). */
export interface ObservedSpan {
  fromMs: number;
  toMs: number;
  priceMilli: number;
}

/** The price observed nearest an instant: `apartMs` 0 when the instant lies within the span. */
export interface ObservedPrice {
  priceMilli: number;
  apartMs: number;
}

/** Station id → its observed spans, oldest first: plain data, so a worker thread can be handed it. */
export type ObservedPrices = ReadonlyMap<string, readonly ObservedSpan[]>;

/** A station's records (oldest first) as observed spans; `lastSeenMs` is the latest walk that listed the station. */
export function observedSpans(records: readonly PriceRecord[], lastSeenMs: number): ObservedSpan[] {
  return records.map((r, i) => {
    const seen = r.seenMs ?? r.updatedMs;
    const until = i === records.length - 1 ? Math.max(seen, lastSeenMs) : seen;
    return { fromMs: r.updatedMs, toMs: Math.max(r.updatedMs, until), priceMilli: r.priceMilli };
  });
}

/** Every station's observed spans, from the mirror's catalog. */
export function observedPricesOf(catalog: Pick<MirrorCatalog, "stations" | "prices">): Map<string, ObservedSpan[]> {
  const byId = new Map<string, CatalogStation>(catalog.stations.map((s) => [s.id, s]));
  const spans = new Map<string, ObservedSpan[]>();
  for (const [id, records] of catalog.prices) {
    const last = records.at(-1);
    if (last === undefined) continue;
    spans.set(id, observedSpans(records, byId.get(id)?.lastSeenMs ?? last.seenMs ?? last.updatedMs));
  }
  return spans;
}

/**
 * The price observed at `atMs`: the latest span that contains it, else the nearest span whose edge lies within
 * `windowMs` (a tie goes to the later span, the price the fill's day moved to); null when none does.
 */
export function observedPriceAt(
  spans: readonly ObservedSpan[] | undefined,
  atMs: number,
  windowMs: number,
): ObservedPrice | null {
  if (spans === undefined) return null;
  let best: ObservedPrice | null = null;
  for (const s of spans) {
    const apartMs = atMs < s.fromMs ? s.fromMs - atMs : atMs > s.toMs ? atMs - s.toMs : 0;
    if (apartMs > windowMs) continue;
    if (best === null || apartMs <= best.apartMs) best = { priceMilli: s.priceMilli, apartMs };
  }
  return best;
}

/**
 * The instants at which `observedPriceAt` over these spans may change its answer (sorted, unique): between two
 * consecutive ones the observed price of every station is constant, so a comparison can be memoised per interval.
 */
export function changePoints(spans: Iterable<readonly ObservedSpan[]>, windowMs: number): number[] {
  const at = new Set<number>();
  for (const list of spans)
    list.forEach((s, i) => {
      at.add(s.fromMs - windowMs);
      at.add(s.fromMs);
      at.add(s.toMs + 1);
      at.add(s.toMs + windowMs + 1);
      const next = list[i + 1];
      // Between two spans the nearer one wins: the answer flips at the middle of the gap.
      if (next !== undefined) at.add(Math.ceil((s.toMs + next.fromMs) / 2));
    });
  return [...at].sort((a, b) => a - b);
}
