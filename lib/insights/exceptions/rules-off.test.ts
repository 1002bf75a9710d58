import { describe, expect, it } from "vitest";

import { EXCEPTION_RULES, isRuleOff } from "./rules";
import { DEFAULT_EXCEPTION_THRESHOLDS } from "./types";

// Issue 25 item 4: the defaults flag a handful. The night-or-weekend rule flagged about half of the sandbox fleet's
// purchases: it is off by default, with a sentence saying why and who turns it on (the page is read by fleet staff:
// no environment variable in it, issue 26). The price rule compares with the price observed at the time since issue 25
// item 3, so it is on by default (an operator may turn it off); every other rule is always on.

const OFF_BY_DEFAULT = ["off-hours"];

describe("rules off by default", () => {
  it("turns off exactly the night-or-weekend rule, saying why and how to turn it on", () => {
    const off = EXCEPTION_RULES.filter((r) => isRuleOff(r, DEFAULT_EXCEPTION_THRESHOLDS)).map((r) => r.id);
    expect(off).toEqual(OFF_BY_DEFAULT);
    for (const id of OFF_BY_DEFAULT) {
      const rule = EXCEPTION_RULES.find((r) => r.id === id);
      expect(rule?.offReason?.(DEFAULT_EXCEPTION_THRESHOLDS)).toMatch(
        /^Off by default: .+ The dashboard's administrator can turn it on\.$/,
      );
    }
  });

  it("runs every rule once the operator turns night-or-weekend on", () => {
    const on = { ...DEFAULT_EXCEPTION_THRESHOLDS, offHoursOn: true };
    expect(EXCEPTION_RULES.filter((r) => isRuleOff(r, on))).toEqual([]);
  });

  it("runs the price rule by default, and says how it was turned off when an operator did", () => {
    expect(DEFAULT_EXCEPTION_THRESHOLDS.catalogPriceOn).toBe(true);
    const rule = EXCEPTION_RULES.find((r) => r.id === "above-catalog-price");
    expect(rule?.offReason?.({ ...DEFAULT_EXCEPTION_THRESHOLDS, catalogPriceOn: false })).toBe(
      "Off: the dashboard's administrator turned it off.",
    );
  });
});
