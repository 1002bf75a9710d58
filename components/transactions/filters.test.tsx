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
