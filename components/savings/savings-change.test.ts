import { describe, expect, it } from "vitest";

import { savingsChange } from "./savings-change";

describe("savingsChange", () => {
  const april = { from: "2026-03-31", to: "2026-04-30" };
  it("says the direction in words, exactly", () => {
    expect(savingsChange("52.30", "40.00", april)).toEqual({
      arrow: "▲",
      text: "$12.30 more than the previous 31 days ($40.00)",
    });
    expect(savingsChange("0.00", "0.01", april)).toEqual({
      arrow: "▼",
      text: "$0.01 less than the previous 31 days ($0.01)",
    });
    expect(savingsChange("7.00", "7.00", { from: "2026-05-01", to: "2026-05-01" })).toEqual({
      arrow: null,
      text: "The same as the previous day ($7.00)",
    });
  });
});
