import { describe, expect, it } from "vitest";

import { createRng } from "./rng";
import type { Location } from "./station-location";
import { stationName, uniqueName } from "./station-names";

const TULSA: Location = { lat: 36.15, lng: -95.99, state: "OK", city: "Tulsa", route: "I-44", exit: 238 };

describe("uniqueName", () => {
  it("adds the city, then a side of town, then the number, then a counter", () => {
    const used = new Set<string>();
    const names = Array.from({ length: 8 }, () => uniqueName("Gateway Travel Plaza", "Tulsa", used, 42));
    expect(names).toEqual([
      "Gateway Travel Plaza",
      "Gateway Travel Plaza - Tulsa",
      "Gateway Travel Plaza - Tulsa East",
      "Gateway Travel Plaza - Tulsa West",
      "Gateway Travel Plaza - Tulsa North",
      "Gateway Travel Plaza - Tulsa South",
      "Gateway Travel Plaza - Tulsa #42",
      "Gateway Travel Plaza - Tulsa (2)",
    ]);
  });

  it("does not repeat a city already in the name", () => {
    const used = new Set(["TA Tulsa"]);
    expect(uniqueName("TA Tulsa", "Tulsa", used, 7)).toBe("TA Tulsa East");
  });
});

describe("stationName", () => {
  it("names chain stations by number or by town", () => {
    const rng = createRng(1);
    expect(stationName(rng, "pilot", TULSA, 123)).toBe("Pilot Travel Center #123");
    expect(stationName(rng, "ta", TULSA, 123)).toBe("TA Tulsa");
    expect(stationName(rng, "caseys", TULSA, 9)).toBe("Casey's #9");
  });

  it("gives independents a regional chain only inside its area", () => {
    const rng = createRng(3);
    const names = Array.from({ length: 500 }, () => stationName(rng, "other", TULSA, 5));
    expect(names.some((n) => n.startsWith("Town Pump"))).toBe(false); // Montana only
    expect(names.some((n) => n === "I-44 Truck Stop" || n.startsWith("Road Ranger"))).toBe(true);
  });
});
