import "server-only";

import { type Credentials, FleetApiError, isFleetApiError, reserveOf } from "@/lib/fleet-api";
import type { StationDetail, StationPricesReply, StationProductPrices, StationProductsInfo } from "@/lib/model";

import { cache, cacheKey } from "../platform/cache";
import { now } from "../platform/clock";
import { getConfig } from "../platform/config";
import type { MirrorAccess } from "../platform/mirror-access";
import { fleetApi } from "../platform/upstream";
import { getCatalog } from "./catalog";

/**
 * Station details, one cache entry per station and key (shared by `GET /api/locations/[id]` and the price checks of
 * `GET /api/locations/prices`), and the budget rule of the price checks.
 *
 * The catalog gives one price per station (diesel). Another product's price is in the station's detail only, one
 * upstream call per station, out of a budget of 60 a minute that the user's other pages and exports share. So:
 * - only stations the page asks for (the nearest candidates, ≤ 25 per request), and only those not cached;
 * - never the last quarter of the key's budget window: a check starts only while
 *   `sent in window + checks in flight < budget − reserve`; the rest is answered as `deferred` (asked again later);
 * - at most 4 price-check calls of one key in flight (every tab together), so another page's request never queues
 *   behind more;
 * - an upstream 429 (the key is paused) is a 429 for the page, which shows the wait and asks again after it.
 */

/** Price-check upstream calls of one key in flight at once. */
const PRICE_CHECK_CONCURRENCY = 4;
/** Deferred checks: the page asks again after this long (a cheap BFF call; no upstream call while still no room). */
const DEFERRED_RETRY_SECONDS = 10;
/** Which products an upstream's detail prices does not change while it runs: learned once an hour per key. */
const PRODUCTS_TTL_MS = 60 * 60_000;
/** Catalog stations tried for the products probe when the first ones are gone (404). */
const PRODUCT_PROBES = 3;

interface CachedDetail {
  station: StationDetail;
  /** When the upstream answered (epoch ms). */
  fetchedAt: number;
}

const detailKey = (key: string, id: string) => cacheKey(key, "location", id);
const absentKey = (key: string, id: string) => cacheKey(key, "location-absent", id);
/** Only getStationDetail writes these two keys, so their types are known. */
const cachedDetail = (key: string, id: string) => cache().peek(detailKey(key, id)) as CachedDetail | undefined;
const isKnownAbsent = (key: string, id: string) => cache().peek(absentKey(key, id)) === true;

interface CheckSlots {
  active: number;
  waiting: (() => void)[];
}

const holder = globalThis as typeof globalThis & {
  __ffdPriceChecksInFlight?: Map<string, number>;
  __ffdPriceCheckSlots?: Map<string, CheckSlots>;
};
/** Price checks granted and not yet finished, per key: counted against the budget before the budget records them. */
const inFlight = (): Map<string, number> => (holder.__ffdPriceChecksInFlight ??= new Map<string, number>());
const checkSlots = (): Map<string, CheckSlots> => (holder.__ffdPriceCheckSlots ??= new Map<string, CheckSlots>());

/** Runs `run` when fewer than PRICE_CHECK_CONCURRENCY price checks of this key are running (FIFO). */
async function withCheckSlot<T>(key: string, run: () => Promise<T>): Promise<T> {
  let slots = checkSlots().get(key);
  if (slots === undefined) {
    slots = { active: 0, waiting: [] };
    checkSlots().set(key, slots);
  }
  if (slots.active >= PRICE_CHECK_CONCURRENCY) {
    await new Promise<void>((resolve) => {
      slots.waiting.push(resolve);
    });
  } else slots.active++;
  try {
    return await run();
  } finally {
    // The slot passes straight to the next waiter; with none, it is freed.
    const next = slots.waiting.shift();
    if (next !== undefined) next();
    else if (--slots.active === 0) checkSlots().delete(key);
  }
}

function release(key: string, count: number): void {
  if (count <= 0) return;
  const left = (inFlight().get(key) ?? 0) - count;
  if (left > 0) inFlight().set(key, left);
  else inFlight().delete(key);
}

/** The reserve rule lives with the budget (lib/fleet-api/budget.ts), shared with the mirror's sync. */
export { reserveOf };

/** How many price checks may start now: what the window has free beyond the reserve and the checks already running. */
export function priceChecksAllowed(use: { budget: number; sent: number }, inFlightCount: number): number {
  return Math.max(0, use.budget - reserveOf(use.budget) - use.sent - inFlightCount);
}

/**
 * One station in full, cached for the locations TTL per key. A station the upstream does not know is remembered as
 * such for the same time, so asking again costs no upstream call.
 */
export async function getStationDetail(
  credentials: Credentials,
  key: string,
  id: string,
  signal?: AbortSignal,
): Promise<CachedDetail> {
  const ttl = getConfig().cacheTtlMs.locations;
  if (isKnownAbsent(key, id)) throw notFoundError();
  try {
    return await cache().get<CachedDetail>(
      detailKey(key, id),
      ttl,
      async (shared) => ({
        station: await fleetApi().getLocation(credentials, id, { signal: shared }),
        fetchedAt: now(),
      }),
      signal,
    );
  } catch (error) {
    if (isFleetApiError(error) && error.code === "not_found")
      await cache().get(absentKey(key, id), ttl, () => Promise.resolve(true));
    throw error;
  }
}

function notFoundError(): FleetApiError {
  return new FleetApiError({ status: 404, code: "not_found", message: "No station with that id exists." });
}

function toPrices(id: string, { station, fetchedAt }: CachedDetail): StationProductPrices {
  return {
    id,
    prices: station.prices,
    priceUpdatedAt: station.priceUpdatedAt,
    checkedAt: new Date(fetchedAt).toISOString(),
  };
}

/**
 * The detail prices of the given stations (in the order asked; the page asks nearest first, so the budget goes to the
 * nearest). Cached stations cost nothing; the others are checked within the budget rule above, the rest deferred.
 */
export async function lookUpStationPrices(
  credentials: Credentials,
  key: string,
  ids: readonly string[],
  signal: AbortSignal,
): Promise<StationPricesReply> {
  const found = new Map<string, StationProductPrices>();
  const notFound = new Set<string>();
  const misses: string[] = [];
  for (const id of ids) {
    const hit = cachedDetail(key, id);
    if (hit !== undefined) found.set(id, toPrices(id, hit));
    else if (isKnownAbsent(key, id)) notFound.add(id);
    else misses.push(id);
  }

  let deferred: string[] = [];
  if (misses.length > 0) {
    const use = await fleetApi().budgetUse(credentials);
    if (use.pausedForMs > 0) {
      // The upstream said 429 a moment ago: the page shows the wait (its banner) and asks again after it.
      throw new FleetApiError({
        status: 429,
        code: "rate_limited",
        message: "The Fleet Fuel API asked us to wait before the next request.",
        retryAfterSeconds: Math.max(1, Math.ceil(use.pausedForMs / 1000)),
      });
    }
    // Synchronous from here to the increment, so two lookups of one key cannot both take the same free slots.
    const running = inFlight().get(key) ?? 0;
    const batch = misses.slice(0, priceChecksAllowed(use, running));
    deferred = misses.slice(batch.length);
    inFlight().set(key, running + batch.length);
    await checkBatch(credentials, key, batch, signal, found, notFound);
  }

  return {
    items: ids.flatMap((id) => {
      const item = found.get(id);
      return item === undefined ? [] : [item];
    }),
    notFound: ids.filter((id) => notFound.has(id)),
    deferred,
    retryAfterSeconds: deferred.length > 0 ? DEFERRED_RETRY_SECONDS : null,
  };
}

/**
 * Checks `batch` within the key's PRICE_CHECK_CONCURRENCY slots. A 404 is collected; any other failure (a 429
 * beyond what a person should wait, a missing scope, an outage) stops new checks, lets the running ones finish (their
 * answers are cached) and is thrown. The browser going away stops new checks too; running ones finish and are cached.
 */
async function checkBatch(
  credentials: Credentials,
  key: string,
  batch: readonly string[],
  signal: AbortSignal,
  found: Map<string, StationProductPrices>,
  notFound: Set<string>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && !signal.aborted && next < batch.length) {
      const id = batch[next++];
      if (id === undefined) break;
      try {
        found.set(id, toPrices(id, await withCheckSlot(key, () => getStationDetail(credentials, key, id))));
      } catch (error) {
        if (isFleetApiError(error) && error.code === "not_found") notFound.add(id);
        else failure ??= { error };
      } finally {
        release(key, 1);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PRICE_CHECK_CONCURRENCY, batch.length) }, worker));
  } finally {
    release(key, batch.length - next);
  }
  if (failure !== undefined) throw failure.error;
  if (signal.aborted) throw new FleetApiError({ status: 0, code: "aborted", message: "The request was cancelled." });
}

/**
 * Which products the upstream's station detail prices, learned from a real detail reply (the first station of the
 * catalog; its detail is then cached like any other), never from a configuration: one upstream call an hour per key.
 */
export function learnStationProducts(
  credentials: Credentials,
  key: string,
  mirror: MirrorAccess | null,
): Promise<StationProductsInfo> {
  return cache().get<StationProductsInfo>(cacheKey(key, "location-products"), PRODUCTS_TTL_MS, async () => {
    const catalog = await getCatalog(credentials, key, mirror);
    for (const station of catalog.slice(0, PRODUCT_PROBES)) {
      try {
        const { station: detail } = await getStationDetail(credentials, key, station.id);
        const products = Object.keys(detail.prices);
        return { products, hasSeveralPrices: products.length > 1 };
      } catch (error) {
        if (!isFleetApiError(error) || error.code !== "not_found") throw error;
      }
    }
    return { products: [], hasSeveralPrices: false };
  });
}
