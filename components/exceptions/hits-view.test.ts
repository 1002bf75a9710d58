import { describe, expect, it } from "vitest";

import { hitsViewProblems, parseHitsView } from "./hits-view";

const at = (query: string) => new URLSearchParams(query);

// Issue 26: /exceptions?rule=evil ignored the rule silently. The link's values the BFF would refuse fall back, and the
// page says which and what it shows instead.
describe("the exceptions page's hits in its link", () => {
  it("reads a rule, a grouping and a page", () => {
    expect(parseHitsView(at("rule=rapid-fills&group=driver&page=3"))).toEqual({
      rule: "rapid-fills",
      group: "driver",
      page: 3,
    });
    expect(hitsViewProblems(at("rule=rapid-fills&group=card&page=2"))).toEqual([]);
  });

  it("sets aside a bad rule, grouping or page, and says so", () => {
    expect(parseHitsView(at("rule=evil&group=truck&page=0"))).toEqual({ rule: null, group: null, page: 1 });
    expect(hitsViewProblems(at("rule=evil&group=truck&page=0"))).toEqual([
      "“evil” is not one of this page's rules; showing the hits of every rule.",
      "“truck” is not a grouping (driver or card); the hits are not grouped.",
      "“0” is not a page number (1, 2, …); showing the first page.",
    ]);
  });
});
