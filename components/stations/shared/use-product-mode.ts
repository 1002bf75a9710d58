"use client";

import { useCallback, useMemo, useState } from "react";

import { formatUnitPrice } from "@/lib/format/numbers";
import type { Station } from "@/lib/model";
import { STATION_PRODUCTS, type StationProduct } from "@/lib/model/products";
import type { BffRequestError } from "@/lib/queries/fetch-json";
import { type StationPricesState, useStationPrices, useStationProducts } from "@/lib/queries/locations";

import type { StationsView as View } from "../view-state";
import { formatLatLng } from "./lat-lng";
import {
  DEFAULT_PRODUCT,
  lookupsFromReplies,
  PRICE_CHECK_STEP,
  priceCheckChunks,
  type PriceLookup,
  productInText,
  productName,
  type ProductRanking,
  rankByProduct,
} from "./product-ranking";
import { findWithin, sortByDistance, type StationWithin } from "./ranking";

/**
 * Ranking by a product the catalog does not price. `learning`: the page is finding out whether the upstream's station
 * detail prices several products; `failed`: that failed; `unavailable`: it prices one (the catalog's price ranks, and
 * the panel says why); `ready`: the product's checked prices rank (`ranking` null until a point is chosen).
 */
export type ProductMode =
  | { status: "learning"; product: StationProduct }
  | { status: "failed"; product: StationProduct; error: BffRequestError; onRetry: () => void; isRetrying: boolean }
  | { status: "unavailable"; product: StationProduct }
  | {
      status: "ready";
      product: StationProduct;
      ranking: ProductRanking | null;
      prices: StationPricesState;
      onCheckMore: () => void;
    };

type PriceLookups = ReadonlyMap<string, PriceLookup>;

const NO_CANDIDATES: readonly StationWithin[] = [];
const NO_PRODUCTS: readonly StationProduct[] = [];

/** What decides which stations' detail prices are checked: a change starts again from the nearest PRICE_CHECK_STEP. */
export function checkScopeOf(view: View): string {
  return [
    view.near === null ? "" : formatLatLng(view.near),
    view.brand ?? "",
    view.state ?? "",
    view.search,
    view.product,
  ].join("|");
}

/** The popup's line about the ranked product at a station ("Unleaded $3.159", "No DEF", "… not checked"). */
export function describeProductAt(product: StationProduct, lookups: PriceLookups, id: string): string {
  const lookup = lookups.get(id);
  if (lookup === undefined)
    return `${productName(product)} price not checked (only the stations nearest your point are).`;
  if (lookup.kind === "not_found") return `${productName(product)}: station not found at the Fleet Fuel API.`;
  const price = lookup.prices[product] ?? null;
  return price === null ? `No ${productInText(product)}` : `${productName(product)} ${formatUnitPrice(price)}`;
}

/**
 * Checks the detail prices of `candidates` in their order, PRICE_CHECK_STEP at a time ("Check more" adds a step); a
 * new `scope` (a point, a route, a filter, a product) starts again. Shared by "cheapest near here" and the Route mode.
 */
export function usePriceChecks(candidates: readonly StationWithin[], scope: string) {
  const [checks, setChecks] = useState({ scope, limit: PRICE_CHECK_STEP });
  if (checks.scope !== scope) setChecks({ scope, limit: PRICE_CHECK_STEP });
  const checkLimit = checks.scope === scope ? checks.limit : PRICE_CHECK_STEP;
  const chunks = useMemo(() => priceCheckChunks(candidates, checkLimit), [candidates, checkLimit]);
  const prices = useStationPrices(chunks);
  const lookups = useMemo(() => lookupsFromReplies(prices.replies), [prices.replies]);
  const onCheckMore = useCallback(() => {
    setChecks((current) => ({ scope: current.scope, limit: current.limit + PRICE_CHECK_STEP }));
  }, []);
  return { checkLimit, prices, lookups, onCheckMore };
}

/** The nearest stations within the radius are checked (usePriceChecks); a new point, filter or product starts again. */
function useCheckedPrices(view: View, shown: readonly Station[], isProductReady: boolean) {
  const candidates = useMemo(
    () =>
      isProductReady && view.near !== null ? sortByDistance(findWithin(shown, view.near, view.radius)) : NO_CANDIDATES,
    [isProductReady, shown, view.near, view.radius],
  );
  const { checkLimit, prices, lookups, onCheckMore } = usePriceChecks(candidates, checkScopeOf(view));
  const ranking = useMemo(
    () =>
      isProductReady && view.near !== null
        ? rankByProduct(candidates, lookups, view.product, checkLimit, view.count)
        : null,
    [isProductReady, view.near, view.product, view.count, candidates, lookups, checkLimit],
  );
  return { prices, lookups, ranking, onCheckMore };
}

/**
 * Another product than the catalog's diesel: offered only when a real station detail prices several (the BFF looks).
 * Gives the products offered, how the list ranks the product of the URL, and the popup's line about it.
 */
export function useProductMode(view: View, shown: readonly Station[], isCatalogLoaded: boolean) {
  const productsInfo = useStationProducts(isCatalogLoaded);
  const products = useMemo(() => {
    const info = productsInfo.data;
    if (!info?.hasSeveralPrices) return NO_PRODUCTS;
    return STATION_PRODUCTS.filter((product) => product === DEFAULT_PRODUCT || info.products.includes(product));
  }, [productsInfo.data]);
  const wantsProduct = view.product !== DEFAULT_PRODUCT;
  const isProductReady = wantsProduct && products.includes(view.product);
  const { prices, lookups, ranking, onCheckMore } = useCheckedPrices(view, shown, isProductReady);
  const productMode = useMemo((): ProductMode | null => {
    if (!wantsProduct) return null;
    if (productsInfo.isError)
      return {
        status: "failed",
        product: view.product,
        error: productsInfo.error,
        onRetry: () => void productsInfo.refetch(),
        isRetrying: productsInfo.isFetching,
      };
    if (productsInfo.data === undefined) return { status: "learning", product: view.product };
    if (!isProductReady) return { status: "unavailable", product: view.product };
    return { status: "ready", product: view.product, ranking, prices, onCheckMore };
  }, [wantsProduct, productsInfo, view.product, isProductReady, ranking, prices, onCheckMore]);
  const describeProduct = useMemo(() => {
    if (!isProductReady) return null;
    const product = view.product;
    return (id: string): string => describeProductAt(product, lookups, id);
  }, [isProductReady, view.product, lookups]);
  return { products, isProductReady, productMode, describeProduct };
}
