import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { TransactionFacetsReply } from "@/lib/model/mirror-replies";
import { type MirrorFilterValues, NO_MIRROR_FILTERS } from "@/lib/queries/transaction-filters";

import { MoreFilterFields } from "./more-filter-fields";
import { MoreFilters } from "./more-filters";

// Issue 26 (mobile TBT): "More filters" drew its fields and every choice (thousands of stations) inside the closed
// <details> at the page's first render — ~2,000 nodes in the first long task on a phone — and asked for the facets
// though nobody had opened it. Now the fields wait for the first opening; a link with one of these filters opens it.
// Rendered to HTML on the server as the first paint is (no DOM environment in this project), with the facets already
// in the query cache, so only the panel's own choice decides what is drawn.

const facets: TransactionFacetsReply = {
  drivers: [{ id: "D-1", name: "Sofia Brown", truck: null }],
  cards: ["4242"],
  trucks: ["T-9"],
  stations: Array.from({ length: 50 }, (_, i) => ({
    id: `S-${String(i)}`,
    name: `Stop ${String(i)}`,
    city: "Ames",
    state: "IA",
  })),
  states: ["IA"],
  products: ["diesel"],
  origin: { source: "mirror", asOf: "2026-11-28T12:00:00.000Z", note: null },
};

function render(values: MirrorFilterValues, panel: typeof MoreFilters = MoreFilters): string {
  const client = new QueryClient();
  // The key useTransactionFacets reads (lib/queries/transactions.ts); a different one leaves the choices out below.
  client.setQueryData(["transactions", "facets"], facets);
  const Panel = panel;
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <Panel values={values} onChange={() => undefined} />
    </QueryClientProvider>,
  );
}

describe("More filters", () => {
  it("closed, draws only its summary: no fields, no choices", () => {
    const html = render(NO_MIRROR_FILTERS);
    expect(html).toContain("More filters");
    expect(html).not.toMatch(/<details[^>]*open/);
    expect(html).not.toContain("<option");
    expect(html).not.toContain("<input");
    expect(html).not.toContain("Sofia Brown");
  });

  it("opened by a link with one of its filters, draws its fields (a lazy chunk) with the facets' choices", () => {
    const values = { ...NO_MIRROR_FILTERS, driver: "D-1" };
    const html = render(values);
    expect(html).toMatch(/<details[^>]*open/);
    expect(html).toContain("More filters (1 on)");
    // A static render does not wait for the lazy chunk: its loading line; the page's server renders the fields (e2e).
    const fields = render(values, MoreFilterFields);
    expect(fields).toContain("Sofia Brown");
    expect(fields).toContain("Stop 49, Ames, IA");
  });
});
