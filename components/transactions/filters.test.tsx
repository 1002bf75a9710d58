import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { TransactionFilters } from "./filters";
import { DEFAULT_LIST_STATE, type ListState } from "./list-state";

// Issue 25 item 6: the list opened from a report's link (dates=local) said "Days in UTC" beside "Each purchase's local
// date". The hint under the bar names the one basis the dates have. Rendered to HTML on the server, as the page's first
// paint is (no DOM environment in this project).

const hintOf = (state: ListState): string => {
  const html = renderToStaticMarkup(
    <TransactionFilters
      state={state}
      onChange={() => undefined}
      onTimeZoneChange={() => undefined}
      browserZone={null}
    />,
  );
  return /data-testid="date-hint"[^>]*>([^<]*)</.exec(html)?.[1] ?? "";
};

describe("the date hint", () => {
  it("says days in the zone without a basis, and each purchase's own local date with dates=local", () => {
    const zoned = { ...DEFAULT_LIST_STATE, tz: "America/Denver" };
    expect(hintOf(zoned)).toContain("Days in America/Denver");
    const local = { ...zoned, mirror: { ...zoned.mirror, dates: "local" as const } };
    expect(hintOf(local)).toContain("own local date");
    expect(hintOf(local)).not.toContain("Days in");
  });
});

// Issue 26: a city typed into Search found nothing and nothing said why. The Search field is described by a sentence
// that says what it matches and where a city or state is found instead.
describe("the search hint", () => {
  it("describes the Search field: what it matches, and that a city or state is filtered elsewhere", () => {
    const html = renderToStaticMarkup(
      <TransactionFilters
        state={DEFAULT_LIST_STATE}
        onChange={() => undefined}
        onTimeZoneChange={() => undefined}
        browserZone={null}
      />,
    );
    const hint = /<p id="([^"]+)"[^>]*data-testid="search-hint"[^>]*>([^<]*)</.exec(html);
    expect(hint?.[2]).toContain("not a city or state");
    expect(hint?.[2]).toContain("Station or State under More filters");
    const search = /<input[^>]*type="search"[^>]*>/.exec(html)?.[0] ?? "";
    expect(/aria-describedby="([^"]+)"/.exec(search)?.[1]?.split(" ")).toContain(hint?.[1]);
  });
});
