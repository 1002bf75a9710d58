import { describe, expect, it } from "vitest";

import { gallons, miles, money, percent, unitPrice } from "./describe";

// Issue 27: the exception sentences' figures come from lib/format, so they read like the rest of the product.
describe("the exception sentences' figures", () => {
  it("groups money like every other amount of the dashboard", () => {
    expect(money(123456n)).toBe("$1,234.56");
    expect(money(1205n)).toBe("$12.05");
  });

  it("writes prices, gallons, miles and shares as before", () => {
    expect(unitPrice(3859)).toBe("$3.859");
    expect(gallons(412000)).toBe("412.0 gal");
    expect(gallons(1234567)).toBe("1,234.6 gal");
    expect(miles(1234.4)).toBe("1,234 mi");
    expect(percent(12.46)).toBe("12.5 %");
    expect(percent(40)).toBe("40 %");
  });
});
