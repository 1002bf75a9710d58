import { describe, expect, it } from "vitest";

import type { SavingsFigures } from "@/lib/model/insight-savings";

import { comparedText, notComparedItems, observedWhenText, priceAppliedText } from "./savings-text";

// The savings card's sentences (issue 25 item 3): over how many fills of how many, why the rest were not compared,
// and whether the customer price was applied.

const none = { fills: 0, gallons: "0.000" };
const figures: SavingsFigures = {
  considered: 40,
  fills: 12,
  gallons: "1440.000",
  couldHaveSaved: "12.34",
  fillsWithSaving: 3,
  aboveStateMedian: "1.00",
  fillsAboveStateMedian: 1,
  notCompared: { noObservation: { fills: 20, gallons: "2400.000" }, noOtherStation: { fills: 1, gallons: "120.000" } },
  unknownStation: none,
  otherProduct: { fills: 7, gallons: "140.500" },
  priceApplied: { checked: 30, notChecked: 3, fillsAbove: 2, paidAbove: "53.10" },
};

describe("the savings card's sentences", () => {
  it("says over how many of the period's fills the figures were computed", () => {
    expect(comparedText(figures)).toBe("over 12 of 40 completed fills");
  });

  it("lists each reason fills were not compared, with their count and gallons, and none that did not happen", () => {
    expect(notComparedItems(figures, 24, 10)).toEqual([
      ["Not compared: no other station's price observed within 24 hours of the fill", "20 fills (2,400.000 gal)"],
      ["Not compared: no other station within 10 miles", "1 fill (120.000 gal)"],
      ["Not compared: other products (the catalog prices diesel only)", "7 fills (140.500 gal)"],
    ]);
  });

  it("says whether the customer price was applied, and what was not checked", () => {
    expect(priceAppliedText(figures, 24)).toBe(
      "30 fills checked: 2 paid more than their station's observed customer price, $53.10 in total. 3 fills not checked: no price of their station observed within 24 hours.",
    );
    const clean = { ...figures, priceApplied: { checked: 1, notChecked: 0, fillsAbove: 0, paidAbove: "0.00" } };
    expect(priceAppliedText(clean, 1)).toBe(
      "1 fill checked: none paid more than its station's observed customer price.",
    );
  });

  it("says how far from the fill the cheaper price was observed", () => {
    expect(observedWhenText(0)).toBe("price at the time");
    expect(observedWhenText(25)).toBe("price seen 25 min from the fill");
    expect(observedWhenText(300)).toBe("price seen 5 hours from the fill");
  });
});
