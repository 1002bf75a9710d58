import { formatDollars } from "@/lib/format/numbers";
import type { ExceptionRuleId } from "@/lib/model/insight-exceptions";

import { hourName } from "./describe";
import { aboveCatalogPrice, impossibleTravel } from "./rules-catalog";
import { offHours, rapidFills } from "./rules-frequency";
import { defWithoutDiesel, failedThenOtherCard } from "./rules-pairs";
import { largeFill, unusualProduct } from "./rules-usual";
import type { ExceptionThresholds, RuleInput, RuleOutcome } from "./types";

export interface ExceptionRule {
  id: ExceptionRuleId;
  name: string;
  /** What the rule flags with these thresholds, in a sentence. */
  describe: (t: ExceptionThresholds) => string;
  /** Reads the station catalog (prices, places): not run when the key cannot read it. */
  needsCatalog: boolean;
  /** Off unless the operator turns it on: when off, why and how to turn it on (null: always on). */
  offReason: ((t: ExceptionThresholds) => string | null) | null;
  run: (input: RuleInput) => RuleOutcome;
}

/** Whether the thresholds turn the rule off (then it is not run and the page says why). */
export const isRuleOff = (rule: ExceptionRule, t: ExceptionThresholds): boolean =>
  (rule.offReason?.(t) ?? null) !== null;

/** The rules, in the order the page lists them. Every one reads transaction data only (and the catalog, where said). */
export const EXCEPTION_RULES: readonly ExceptionRule[] = [
  {
    id: "rapid-fills",
    name: "Several fills in a short time",
    describe: (t) =>
      `${String(t.rapidFillsCount)} or more fills on one card or one truck within ${String(t.rapidFillsWindowMinutes)} minutes.`,
    needsCatalog: false,
    offReason: null,
    run: rapidFills,
  },
  {
    id: "large-fill",
    name: "Fill larger than the truck's usual",
    describe: (t) =>
      `A fill above both the ${String(t.largeFillPercentile)}th percentile and ${String(t.largeFillMedianPercent / 100)} × the median of the truck's fills of that product in the ${String(t.historyDays)} days before the period (at least ${String(t.historyMinFills)} fills).`,
    needsCatalog: false,
    offReason: null,
    run: largeFill,
  },
  {
    id: "off-hours",
    name: "Purchase at night or on a weekend",
    describe: (t) =>
      `A fill between ${hourName(t.nightStartHour)} and ${hourName(t.nightEndHour)}${t.weekends ? " or on a Saturday or Sunday" : ""}, in the local time of the purchase.`,
    needsCatalog: false,
    offReason: (t) =>
      t.offHoursOn
        ? null
        : "Off by default: night and weekend purchases are ordinary for many fleets (about half of the sandbox fleet's), so the rule would bury the anomalies. The dashboard's administrator can turn it on.",
    run: offHours,
  },
  {
    id: "above-catalog-price",
    name: "Price above the station's customer price at the time",
    describe: (t) =>
      `A diesel fill paid more than ${formatDollars(t.priceMarginCents / 100)} per gallon above its station's customer price as the catalog walks observed it around the purchase; a purchase with no observation that close is not judged.`,
    needsCatalog: true,
    offReason: (t) => (t.catalogPriceOn ? null : "Off: the dashboard's administrator turned it off."),
    run: aboveCatalogPrice,
  },
  {
    id: "unusual-product",
    name: "Product unusual for the truck",
    describe: (t) =>
      `A product that made up less than ${String(t.unusualProductMaxPercent)} % of the truck's fills in the ${String(t.historyDays)} days before the period (at least ${String(t.historyMinFills)} fills), such as unleaded in a diesel truck.`,
    needsCatalog: false,
    offReason: null,
    run: unusualProduct,
  },
  {
    id: "def-without-diesel",
    name: "DEF without diesel",
    describe: (t) =>
      `DEF bought with no diesel on the same purchase or for the same truck (card, when there is no truck) within ${String(t.defDieselWindowMinutes)} minutes.`,
    needsCatalog: false,
    offReason: null,
    run: defWithoutDiesel,
  },
  {
    id: "impossible-travel",
    name: "Impossible travel",
    describe: (t) =>
      `Two purchases in a row by one driver at stations farther apart (great circle, at least ${String(t.travelMinMiles)} miles) than ${String(t.travelMph)} mph allows in the time between them.`,
    needsCatalog: true,
    offReason: null,
    run: impossibleTravel,
  },
  {
    id: "failed-then-other-card",
    name: "Failed attempts, then another card",
    describe: (t) =>
      `Failed attempts followed within ${String(t.failedWindowMinutes)} minutes by a purchase on another card by the same driver or for the same truck.`,
    needsCatalog: false,
    offReason: null,
    run: failedThenOtherCard,
  },
];
