/**
 * Test oracle (not shipped): the trucks' "usual" gathered as main had it at 5b16879, before the history was read
 * grouped — one HistoryFill per earlier fill, failed attempts and fills without a truck left out, each truck's fills
 * filtered per product class with the classifier itself (no remembered classes). The rules' own figures and sentences
 * (rules-usual.ts) then run on it, so the property test compares the grouped read and regrouping with this.
 */
import { classifyProduct, type ProductClass } from "@/lib/model/product-classes";

import { groupBy, isFill } from "./rules-frequency";
import { largeFillOf, type TruckClasses, unusualProductOf } from "./rules-usual";
import type { HistoryFill, RuleInput, RuleOutcome } from "./types";

type OracleInput = Omit<RuleInput, "history"> & { history: readonly HistoryFill[] };

const CLASSES: readonly ProductClass[] = ["diesel", "unleaded", "other", "def"];

function classesPerFill(history: readonly HistoryFill[]): TruckClasses {
  const byTruck = groupBy(history.filter(isFill), (p) => p.truckId);
  return (truckId) => {
    const fills = byTruck.get(truckId) ?? [];
    const byClass = new Map<ProductClass, number[]>();
    for (const productClass of CLASSES) {
      const gallons = fills
        .filter((p) => classifyProduct(p.product).productClass === productClass)
        .map((p) => p.gallonsMilli);
      if (gallons.length > 0) byClass.set(productClass, gallons);
    }
    return byClass;
  };
}

export const largeFillOracle = (input: OracleInput): RuleOutcome => largeFillOf(input, classesPerFill(input.history));

export const unusualProductOracle = (input: OracleInput): RuleOutcome =>
  unusualProductOf(input, classesPerFill(input.history));
