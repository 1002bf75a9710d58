import { describe, expect, it } from "vitest";

import { NO_MIRROR_FILTERS } from "@/lib/queries/transaction-filters";

import {
  DEFAULT_LIST_STATE,
  hasActiveFilters,
  listStateProblems,
  parseListState,
  serializeListState,
} from "./list-state";
import { decimalProblem, plainDecimal, rangeOrderProblem } from "./mirror-filter-state";

const parse = (query: string) => parseListState(new URLSearchParams(query));
const problems = (query: string) => listStateProblems(new URLSearchParams(query));

describe("the filters only the local copy answers, in the URL", () => {
  it("round-trips every one of them with the sort, and leaves them out when not set", () => {
    const query =
      "status=completed&driver=D-1042&card=4821&truck=T-17&station=st_000123&state=TX&product=diesel" +
      "&amountMin=25&amountMax=250.5&gallonsMin=10.125&gallonsMax=80&dates=local&sort=amount&dir=asc";
    const state = parse(query);
    expect(state.mirror).toEqual({
      driver: "D-1042",
      card: "4821",
      truck: "T-17",
      station: "st_000123",
      state: "TX",
      product: "diesel",
      amountMin: "25",
      amountMax: "250.5",
      gallonsMin: "10.125",
      gallonsMax: "80",
      dates: "local",
    });
    expect(state.sort).toEqual({ column: "amount", dir: "asc" });
    expect(serializeListState(state)).toBe(query);
    expect(problems(query)).toEqual([]);
    expect(serializeListState({ ...DEFAULT_LIST_STATE, mirror: NO_MIRROR_FILTERS, sort: null })).toBe("");
  });

  it("counts them as filters (Clear filters, the empty state)", () => {
    expect(hasActiveFilters(parse("product=diesel"))).toBe(true);
    expect(hasActiveFilters(parse("sort=amount"))).toBe(false);
  });

  it("normalizes what the BFF normalizes: a state in capitals, a product in small letters", () => {
    expect(parse("state=tx&product=Diesel").mirror).toMatchObject({ state: "TX", product: "diesel" });
  });

  it("keeps the product names the BFF takes (review 16 #1) and sets aside what it refuses", () => {
    for (const product of ["Unleaded 87", "ULSD #2", "Misc.", "B20/Bio", "E15+"]) {
      const query = new URLSearchParams({ product }).toString();
      expect(parse(query).mirror.product, product).toBe(product.toLowerCase());
    }
    expect(parse("product=%3Cscript%3E").mirror.product).toBeNull();
  });

  it("reads the default sort (newest first) as no sort, and a sort without a direction as descending", () => {
    expect(parse("sort=at&dir=desc").sort).toBeNull();
    expect(serializeListState(parse("sort=at&dir=desc"))).toBe("");
    expect(parse("sort=gallons").sort).toEqual({ column: "gallons", dir: "desc" });
  });

  it("sets aside what the BFF would refuse, and says so in words", () => {
    const query = "card=48&state=ZZ&amountMin=-3&gallonsMax=1.2345&sort=colour&dir=up&driver=%20";
    expect(parse(query).mirror).toEqual(NO_MIRROR_FILTERS);
    expect(parse(query).sort).toBeNull();
    expect(problems(query)).toEqual([
      "“ ” is not a driver this list can filter by; that filter is off.",
      "“48” is not a card this list can filter by; that filter is off.",
      "“ZZ” is not a state this list can filter by; that filter is off.",
      "“-3” is not a lowest amount this list can filter by; that filter is off.",
      "“1.2345” is not a most gallons this list can filter by; that filter is off.",
      "“colour” is not a column the list can sort by; it is sorted newest first.",
      "“up” is not a sort direction (asc or desc); the list sorts descending.",
    ]);
  });

  it("drops a range given the wrong way round (it would match nothing) and says why", () => {
    expect(parse("amountMin=300&amountMax=20").mirror).toEqual(NO_MIRROR_FILTERS);
    expect(problems("amountMin=300&amountMax=20")).toEqual([
      "The lowest amount (300) is above the highest (20). Both amount bounds are off.",
    ]);
    expect(parse("gallonsMin=5&gallonsMax=5").mirror).toMatchObject({ gallonsMin: "5", gallonsMax: "5" });
  });
});

describe("the range fields' messages", () => {
  it("accepts whole numbers and decimals up to the places of the unit; empty is no bound", () => {
    expect(decimalProblem("", 2)).toBeNull();
    expect(decimalProblem("25", 2)).toBeNull();
    expect(decimalProblem("25.50", 2)).toBeNull();
    expect(decimalProblem(".5", 3)).toBeNull();
    expect(decimalProblem("10.125", 3)).toBeNull();
  });

  it("takes figures as people type them: a $ in front, thousands separators, a unit after (issue 26)", () => {
    expect(plainDecimal("$1,000")).toBe("1000");
    expect(plainDecimal("1,000")).toBe("1000");
    expect(plainDecimal(" $ 1,234,567.50 ")).toBe("1234567.50");
    expect(plainDecimal("25 gal")).toBe("25");
    expect(decimalProblem("$1,000", 2)).toBeNull();
    expect(decimalProblem("1,000.25", 2)).toBeNull();
    expect(parse("amountMin=%241%2C000").mirror.amountMin).toBe("1000");
  });

  it("says what to type instead", () => {
    const typo = "Enter a number such as 25, 1,000 or 25.50 (a $ in front is fine; no minus sign).";
    expect(decimalProblem("-1", 2)).toBe(typo);
    expect(decimalProblem("12,5", 2)).toBe(typo);
    expect(decimalProblem("1,00", 2)).toBe(typo);
    expect(decimalProblem("25.505", 2)).toBe("Enter at most 2 decimals.");
    expect(decimalProblem("1234567890", 2)).toBe("Enter a number below 1,000,000,000.");
  });

  it("says when the lowest is above the highest", () => {
    expect(rangeOrderProblem("30", "20", "amount")).toBe("The lowest amount (30) is above the highest (20).");
    expect(rangeOrderProblem("20", "30", "amount")).toBeNull();
    expect(rangeOrderProblem(null, "30", "gallons")).toBeNull();
  });
});
