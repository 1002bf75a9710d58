import { describe, expect, it } from "vitest";

import { EXCEPTION_RULES, isRuleOff } from "./rules";
import { DEFAULT_EXCEPTION_THRESHOLDS } from "./types";

// Issue 25 item 4: the defaults flag a handful. The night-or-weekend rule flagged about half of the sandbox fleet's
// purchases and the price rule compares older fills with today's catalog price: both are off by default, each with a
// sentence saying why and how an operator turns it on; every other rule is always on.

const OFF_BY_DEFAULT = { "off-hours": "EXCEPTIONS_OFF_HOURS", "above-catalog-price": "EXCEPTIONS_CATALOG_PRICE" };

describe("rules off by default", () => {
  it("turns off exactly the night-or-weekend and catalog price rules, saying why and how to turn them on", () => {
    const off = EXCEPTION_RULES.filter((r) => isRuleOff(r, DEFAULT_EXCEPTION_THRESHOLDS)).map((r) => r.id);
    expect(off).toEqual(Object.keys(OFF_BY_DEFAULT));
    for (const [id, env] of Object.entries(OFF_BY_DEFAULT)) {
      const rule = EXCEPTION_RULES.find((r) => r.id === id);
      expect(rule?.offReason?.(DEFAULT_EXCEPTION_THRESHOLDS)).toMatch(
        new RegExp(`^Off by default: .+ An operator turns it on with ${env}=true\\.$`),
      );
    }
  });

  it("runs every rule once the operator turns both on", () => {
    const on = { ...DEFAULT_EXCEPTION_THRESHOLDS, offHoursOn: true, catalogPriceOn: true };
    expect(EXCEPTION_RULES.filter((r) => isRuleOff(r, on))).toEqual([]);
  });
});
