import { describe, expect, it } from "vitest";

import { parseView } from "../view-state";
import type { PriceLookup } from "./product-ranking";
import { checkScopeOf, describeProductAt } from "./use-product-mode";

describe("the product ranking's pieces", () => {
  it("gives the popup's line about the ranked product at a station", () => {
    const lookups = new Map<string, PriceLookup>([
      ["a", { kind: "found", prices: { unleaded: "3.159" }, priceUpdatedAt: null, checkedAt: "2026-01-01T00:00:00Z" }],
      ["b", { kind: "found", prices: {}, priceUpdatedAt: null, checkedAt: "2026-01-01T00:00:00Z" }],
      ["c", { kind: "not_found" }],
    ]);
    expect(describeProductAt("unleaded", lookups, "a")).toBe("Unleaded $3.159");
    expect(describeProductAt("unleaded", lookups, "b")).toBe("No unleaded");
    expect(describeProductAt("unleaded", lookups, "c")).toBe("Unleaded: station not found at the Fleet Fuel API.");
    expect(describeProductAt("unleaded", lookups, "d")).toBe(
      "Unleaded price not checked (only the stations nearest your point are).",
    );
  });

  it("starts the checks again when the point, a filter or the product changes, not when the radius does", () => {
    const view = parseView(new URLSearchParams("near=35.2,-101.8&product=unleaded"));
    expect(checkScopeOf({ ...view, radius: 50 })).toBe(checkScopeOf(view));
    expect(checkScopeOf({ ...view, brand: "X" })).not.toBe(checkScopeOf(view));
    expect(checkScopeOf({ ...view, near: null })).not.toBe(checkScopeOf(view));
  });
});
