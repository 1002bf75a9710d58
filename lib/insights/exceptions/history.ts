import { classifyProduct, type ProductClass } from "@/lib/model/product-classes";

import type { HistoryFill, TruckHistory } from "./types";

/** Names remembered at most: a fleet buys a handful of products; past this the memo starts over (never unbounded). */
const MAX_REMEMBERED = 10_000;
const classes = new Map<string, ProductClass>();

/**
 * The class of a product name (lib/model/product-classes: "Diesel", "ULSD #2" and "diesel" are one product),
 * remembered per name: the rules ask it of every purchase, and the regular expressions cost more than the rest of a
 * rule's look at a purchase.
 */
export function classOf(product: string): ProductClass {
  let productClass = classes.get(product);
  if (productClass === undefined) {
    if (classes.size >= MAX_REMEMBERED) classes.clear();
    productClass = classifyProduct(product).productClass;
    classes.set(product, productClass);
  }
  return productClass;
}

/** The history as the rules read it (TruckHistory) from single fills: failed attempts and fills with no truck left out. */
export function groupHistory(fills: readonly HistoryFill[]): TruckHistory {
  const byTruck = new Map<string, Map<string, number[]>>();
  for (const f of fills) {
    if (f.status === "failed" || f.truckId === null) continue;
    let products = byTruck.get(f.truckId);
    if (products === undefined) byTruck.set(f.truckId, (products = new Map<string, number[]>()));
    const gallons = products.get(f.product);
    if (gallons === undefined) products.set(f.product, [f.gallonsMilli]);
    else gallons.push(f.gallonsMilli);
  }
  return byTruck;
}

/** A truck's history gallons by product class (several names of one class together). */
export function gallonsByClass(
  products: ReadonlyMap<string, readonly number[]> | undefined,
): Map<ProductClass, number[]> {
  const byClass = new Map<ProductClass, number[]>();
  for (const [product, gallons] of products ?? []) {
    const productClass = classOf(product);
    const list = byClass.get(productClass);
    if (list === undefined) byClass.set(productClass, [...gallons]);
    else for (const g of gallons) list.push(g);
  }
  return byClass;
}
