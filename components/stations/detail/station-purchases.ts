import type { Transaction, UnitPrice } from "@/lib/model";
import { addDecimals, averagePricePerGallon, toMinorUnits } from "@/lib/model/decimal-math";

import { productName } from "../shared/product-ranking";

/** The average price this fleet paid for one product at a station. */
export interface ProductAverage {
  /** "diesel", "unleaded", "def" (DEF is bought with a fuel purchase, in its own `def` part). */
  product: string;
  name: string;
  average: UnitPrice;
  /** Purchases of this product the average rests on. */
  purchases: number;
}

/**
 * Average price paid per product (amount ÷ gallons, exact decimals), over completed and pending purchases (failed
 * ones cost nothing). One average per product: diesel and unleaded mixed would be a price no pump ever showed. A
 * purchase's DEF part (its own gallons and amount) counts as DEF. Ordered by purchases, most first.
 */
export function averagesByProduct(items: readonly Transaction[]): ProductAverage[] {
  const groups = new Map<string, { amounts: string[]; gallons: string[] }>();
  const add = (product: string, amount: string, gallons: string) => {
    const group = groups.get(product) ?? { amounts: [], gallons: [] };
    group.amounts.push(amount);
    group.gallons.push(gallons);
    groups.set(product, group);
  };
  for (const t of items) {
    if (t.status === "failed") continue;
    add(t.product.toLowerCase(), t.amount, t.gallons);
    if (t.def !== null && toMinorUnits(t.def.gallons, 3) > 0n) add("def", t.def.amount, t.def.gallons);
  }
  return [...groups.entries()]
    .flatMap(([product, g]): ProductAverage[] => {
      const average = averagePricePerGallon(
        toMinorUnits(addDecimals(g.amounts, 2), 2),
        toMinorUnits(addDecimals(g.gallons, 3), 3),
      );
      return average === null ? [] : [{ product, name: productName(product), average, purchases: g.amounts.length }];
    })
    .sort((a, b) => b.purchases - a.purchases || a.name.localeCompare(b.name));
}
