import { describe, expect, it } from "vitest";

import { planCoverageText, routeMoney, routeTenths, routeUnitPrice } from "./route-format";

describe("the Route mode's figures", () => {
  it("prints prices, money and tenths, and a dash for an effective price that does not exist", () => {
    expect(routeUnitPrice(3.4591)).toBe("$3.459");
    // A station where the truck would buy nothing (its tank would still be full): lib/route gives Infinity.
    expect(routeUnitPrice(Number.POSITIVE_INFINITY)).toBe("—");
    expect(routeMoney(1234.5)).toBe("$1,234.50");
    expect(routeMoney(-0.001)).toBe("$0.00");
    expect(routeTenths(1092.44)).toBe("1,092.4");
  });

  it("says a plan over checked prices covers only the stations checked so far", () => {
    expect(planCoverageText({ checked: 25, total: 1080 })).toBe("over 25 of 1,080 corridor stations checked so far");
    expect(planCoverageText({ checked: 80, total: 80 })).toBeNull();
    expect(planCoverageText(null)).toBeNull();
  });
});
