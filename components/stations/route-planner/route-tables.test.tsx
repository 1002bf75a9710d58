import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { type FillPlan, planFills } from "@/lib/route";
import { DEFAULT_ROUTE_OPTIONS, type TruckProfile } from "@/lib/route/options";
import { candidate } from "@/lib/route/test-stations";

import { RoutePlanTable } from "./route-plan-table";

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

  it("prints totals that add up to the cent as the rows are printed (the finding: $202.55 + $5.67 ≠ $208.21)", () => {
    const stop = { candidate: candidate("A", 80, 2, 3.229), arriveGallons: 59.2, buyGallons: 62.727 };
    const exact: FillPlan = {
      feasible: true,
      stops: [{ ...stop, cost: 202.546, detourCost: 5.666 }],
      fuelCost: 202.546,
      detourCost: 5.666,
      totalCost: 208.212,
      endGallons: 20,
      reason: null,
      gap: null,
    };
    const html = renderToStaticMarkup(<RoutePlanTable plan={exact} coverage={null} onSelect={noop} />);
    expect(html).toContain("$202.55");
    expect(html).toContain("$5.67");
    expect(html).toContain("Total ($208.22 with detours)");
  });

  it("says why there is no plan in miles, and offers the checked fixes as buttons", () => {
    const none = planFills(route, [candidate("A", 20, 0, 3.5)], truck, DEFAULT_ROUTE_OPTIONS);
    const via = { point: { lat: 35, lng: -100 }, label: "Station B, Town, KS", index: 0, offMiles: 12 };
    const html = renderToStaticMarkup(
      <RoutePlanTable
        plan={none}
        coverage={null}
        onSelect={noop}
        fixes={{ corridorMiles: 15, via }}
        actions={{ onWiden: noop, onAddVia: noop }}
      />,
    );
    expect(html).toContain(
      "No fill plan keeps the truck above its reserve: a 230.0-mile gap between the last station within reach (mile " +
        "20.0) and the end of the route (mile 250.0); your range is 200.0 mi at 5.0 mpg (40.0 gal above the reserve).",
    );
    expect(html).toContain("Widen the corridor to 15 mi");
    expect(html).toContain("Go via Station B, Town, KS (12.0 mi off the path)");
  });
});
