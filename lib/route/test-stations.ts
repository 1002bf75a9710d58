import type { Station } from "@/lib/model";

import type { Candidate, PricedStation } from "./corridor";

/** A catalog station for the planner's tests (only lat, lng and loc number matter to it). */
export function testStation(locNum: string, lat: number, lng: number): Station {
  return {
    id: `id-${locNum}`,
    locNum,
    name: `Station ${locNum}`,
    brand: "pilot",
    address: "1 Main St",
    city: "Town",
    state: "KS",
    lat,
    lng,
    price: null,
    priceUpdatedAt: null,
  };
}

export function priced(locNum: string, lat: number, lng: number, price: number): PricedStation {
  return { station: testStation(locNum, lat, lng), price, priceText: price.toFixed(3) };
}

/** A candidate placed by hand: `offMiles` off the path at `alongMiles`, the detour at circuity 1.25 and 45 mph. */
export function candidate(locNum: string, alongMiles: number, offMiles: number, price: number): Candidate {
  const detourMiles = 2 * offMiles * 1.25;
  return { ...priced(locNum, 0, 0, price), alongMiles, offMiles, detourMiles, detourHours: detourMiles / 45 };
}
