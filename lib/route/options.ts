/** What the planner knows of the truck. Gallons are US gallons; `hourlyValue` is dollars per driver hour. */
export interface TruckProfile {
  tankGallons: number;
  fuelNowGallons: number;
  mpg: number;
  /** Fuel the truck keeps in the tank at all times: the plan never lets it fall under this. */
  reserveGallons: number;
  hourlyValue: number;
}

/** How detours are estimated without a road network. */
export interface RouteOptions {
  /** Stations at most this far (great-circle miles) from the path are candidates; the edge counts as inside. */
  corridorMiles: number;
  /** Road miles per straight-line mile: a detour is 2 × the distance off the path × this. */
  circuity: number;
  /** Average speed of the detour (off the interstate, through town), for its time. */
  detourSpeedMph: number;
}

/**
 * Issue 18's defaults. Corridor 10 mi: a stop a driver would still call "on the way". Circuity 1.25: roads are
 * longer than the straight line — studies of US road networks put the ratio of road to great-circle distance at about
 * 1.2 over long trips and higher over short ones, and a detour is short. 45 mph: a detour leaves the interstate for
 * arterials and town streets (65+ on the highway, 25–35 in town), with the exit and the entrance ramps.
 */
export const DEFAULT_ROUTE_OPTIONS: RouteOptions = Object.freeze({
  corridorMiles: 10,
  circuity: 1.25,
  detourSpeedMph: 45,
});

/**
 * A long-haul Class 8 tractor, as ballpark defaults the page shows and lets the user change: 150 gal of tank (one
 * large saddle tank; many tractors carry two, 200–300 gal), 60 gal now (the example), 6.5 mpg (the usual
 * figure for a loaded long-haul tractor, 6–7 mpg), 20 gal kept in reserve (about 130 mi of margin), and $35 per driver
 * hour (a driver's pay with benefits, of the order of ATRI's yearly "operational costs of trucking" figures).
 */
export const DEFAULT_TRUCK: TruckProfile = Object.freeze({
  tankGallons: 150,
  fuelNowGallons: 60,
  mpg: 6.5,
  reserveGallons: 20,
  hourlyValue: 35,
});

function need(ok: boolean, message: string): void {
  if (!ok) throw new RangeError(message);
}

/** Throws a RangeError naming the first option a person should fix (the page validates its inputs before calling). */
export function checkOptions(options: RouteOptions): void {
  need(Number.isFinite(options.corridorMiles) && options.corridorMiles >= 0, "the corridor must be 0 miles or more");
  need(Number.isFinite(options.circuity) && options.circuity >= 1, "the circuity factor must be 1 or more");
  need(Number.isFinite(options.detourSpeedMph) && options.detourSpeedMph > 0, "the detour speed must be above 0 mph");
}

/** Throws a RangeError naming the first truck figure a person should fix. */
export function checkTruck(truck: TruckProfile): void {
  need(Number.isFinite(truck.tankGallons) && truck.tankGallons > 0, "the tank size must be above 0 gallons");
  need(
    Number.isFinite(truck.fuelNowGallons) && truck.fuelNowGallons >= 0 && truck.fuelNowGallons <= truck.tankGallons,
    "the fuel in the tank must be between 0 and the tank size",
  );
  need(Number.isFinite(truck.mpg) && truck.mpg > 0, "the miles per gallon must be above 0");
  need(
    Number.isFinite(truck.reserveGallons) && truck.reserveGallons >= 0 && truck.reserveGallons < truck.tankGallons,
    "the reserve must be at least 0 gallons and less than the tank size",
  );
  need(Number.isFinite(truck.hourlyValue) && truck.hourlyValue >= 0, "the value of a driver hour must be $0 or more");
}
