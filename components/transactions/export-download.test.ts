import { describe, expect, it } from "vitest";

import { exportUrl } from "./export-download";
import { parseListState } from "./list-state";

describe("the export of the list", () => {
  it("asks for exactly the rows the table shows: every filter of the view, and its order", () => {
    const view = parseListState(
      new URLSearchParams(
        "range=custom&from=2026-01-01&to=2026-01-31&tz=America%2FChicago&status=completed&search=Smith" +
          "&card=4821&state=TX&product=diesel&gallonsMax=80&sort=gallons&dir=desc&page=3&limit=25",
      ),
    );
    const url = new URL(exportUrl(view, "csv", "export-0001"), "http://localhost");
    expect(url.pathname).toBe("/api/transactions/export");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: "csv",
      from: "2026-01-01",
      to: "2026-01-31",
      tz: "America/Chicago",
      status: "completed",
      search: "Smith",
      card: "4821",
      state: "TX",
      product: "diesel",
      gallonsMax: "80",
      sort: "gallons",
      dir: "desc",
      exportId: "export-0001",
    });
  });
});
