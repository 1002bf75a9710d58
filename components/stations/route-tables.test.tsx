import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { planFills } from "@/lib/route";
import { DEFAULT_ROUTE_OPTIONS, type TruckProfile } from "@/lib/route/options";
import { candidate } from "@/lib/route/test-stations";

import { RoutePlanTable } from "./route-tables";

// No DOM test environment in this project: the tables are rendered to HTML on the server (react-dom/server).

const route = { points: [], legs: [], totalMiles: 250 };
const truck: TruckProfile = { tankGallons: 50, fuelNowGallons: 30, mpg: 5, reserveGallons: 10, hourlyValue: 30 };
const noop = () => undefined;

describe("the fill plan table", () => {
  const plan = planFills(route, [candidate("A", 80, 2, 3.5)], truck, DEFAULT_ROUTE_OPTIONS);

  it("names its detour column for what it holds: the detour's time in dollars", () => {
    expect(plan.feasible).toBe(true);
    const html = renderToStaticMarkup(<RoutePlanTable plan={plan} coverage={null} onSelect={noop} />);
    expect(html).toContain("Detour time ($)");
    expect(html).not.toContain("Detour cost");
  });

  it("says a plan over checked prices covers the stations checked so far, not the corridor", () => {
    const partial = renderToStaticMarkup(
      <RoutePlanTable plan={plan} coverage={{ checked: 25, total: 80 }} onSelect={noop} />,
    );
    expect(partial).toContain("over 25 of 80 corridor stations checked so far");
    const none = planFills(route, [], truck, DEFAULT_ROUTE_OPTIONS);
    const infeasible = renderToStaticMarkup(
      <RoutePlanTable plan={none} coverage={{ checked: 0, total: 80 }} onSelect={noop} />,
    );
    expect(infeasible).toContain("over 0 of 80 corridor stations checked so far");
    const complete = renderToStaticMarkup(
      <RoutePlanTable plan={plan} coverage={{ checked: 80, total: 80 }} onSelect={noop} />,
    );
    expect(complete).not.toContain("checked so far");
  });

  it("has no plan for DEF, and says so", () => {
    const html = renderToStaticMarkup(<RoutePlanTable plan={null} coverage={null} onSelect={noop} />);
    expect(html).toContain("No fill plan for DEF: the plan is for the truck&#x27;s fuel.");
  });
});
