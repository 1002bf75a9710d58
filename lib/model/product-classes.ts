// No zod here: browser code imports this module directly (the report page shows the classes and their rule).

/**
 * The one classifier of product names (issue 16): what a purchase's `product` counts as in the fuel reports. The
 * upstream's product is free text ("diesel", "Unleaded 87", "ULSD #2", "DEF"); reports group fuel by class:
 * diesel, unleaded (gasoline of any grade or ethanol blend), other (fuel we know but do not split out, or a name we
 * do not recognise). A purchase whose product is diesel exhaust fluid itself is `def`: never fuel gallons, counted in
 * the DEF columns with the DEF part of other purchases (the row's `def` object).
 */

export const FUEL_CLASSES = ["diesel", "unleaded", "other"] as const;
export type FuelClass = (typeof FUEL_CLASSES)[number];
export type ProductClass = FuelClass | "def";

export interface ProductClassification {
  productClass: ProductClass;
  /** False when the name matched no rule and landed in "other" for that reason (the report's data-quality block). */
  recognised: boolean;
}

// Word-ish matches on the lower-cased name; the order matters: "diesel exhaust fluid" is DEF, not diesel.
const DEF = /(^|[^a-z])(def|adblue|diesel exhaust fluid)([^a-z]|$)/;
const DIESEL = /diesel|(^|[^a-z])(ulsd|lsd|dsl|b\d{1,3}|r\d{2,3}|reefer|#\s?[12]|no\.?\s?[12]( fuel)?)([^a-z]|$)/;
const UNLEADED =
  /unleaded|gasoline|petrol|(^|[^a-z])(unl|ulg|gas|regular|reg|midgrade|mid|plus|premium|prem|super|e\d{1,2}|8[5-9]|9[0-4])([^a-z0-9]|$)/;
/** Fuels we recognise but do not split out: they go to "other", and are not a data-quality finding. */
const OTHER_KNOWN =
  /(^|[^a-z])(cng|lng|lpg|propane|kerosene|hydrogen|methanol|e85 flex|electric|ev charg\w*)([^a-z]|$)/;

/** The class of a product name (see the module comment); names are matched case-insensitively, trimmed. */
export function classifyProduct(product: string): ProductClassification {
  const name = product.trim().toLowerCase();
  if (DEF.test(name)) return { productClass: "def", recognised: true };
  if (OTHER_KNOWN.test(name)) return { productClass: "other", recognised: true };
  if (DIESEL.test(name)) return { productClass: "diesel", recognised: true };
  if (UNLEADED.test(name)) return { productClass: "unleaded", recognised: true };
  return { productClass: "other", recognised: false };
}

/** The rule in words, for the report's page and files. */
export const PRODUCT_CLASS_RULE =
  "Diesel: product names with diesel, ULSD, #2 or a biodiesel blend (B5, B20). Unleaded: unleaded, gasoline, regular, midgrade, premium or an ethanol blend (E10). Other: fuels such as CNG, propane or kerosene, and any name not recognised. DEF (diesel exhaust fluid) is never fuel: it has its own columns.";
