import { describe, expect, it } from "vitest";

import type { ProductRanking } from "./product-ranking";
import { describePriceCheck } from "./product-summary-text";

const ranking = (patch: Partial<ProductRanking>): ProductRanking => ({
  product: "unleaded",
  items: [],
  candidates: 12,
  toCheck: 10,
  checked: 10,
  priced: 7,
  withoutProduct: [],
  notFound: [],
  areaAverage: 3.1234,
  ...patch,
});

describe("describePriceCheck (the product summary's sentences)", () => {
  it("says how far the checking has got while it runs", () => {
    expect(describePriceCheck(ranking({ checked: 4 }), true, 25).status).toBe(
      "checking unleaded prices at the 10 nearest of 12 stations within 25 mi… 4 of 10 checked.",
    );
  });

  it("says what was checked and what the checked stations gave once done", () => {
    const { status, results } = describePriceCheck(ranking({ toCheck: 12, candidates: 12, checked: 12 }), false, 10);
    expect(status).toBe("Unleaded prices checked at all 12 stations within 10 mi.");
    expect(results).toBe("7 have an unleaded price, average $3.123.");
  });

  it("has no results before any station is checked, and says when no station is within the radius", () => {
    expect(describePriceCheck(ranking({ checked: 0 }), true, 10).results).toBeNull();
    expect(describePriceCheck(ranking({ candidates: 0, toCheck: 0, checked: 0 }), false, 5).status).toBe(
      "no station within 5 mi. Try a larger radius or another point.",
    );
  });
});
