/**
 * Station names: the chains' own numbering or town, independent and regional operators for the "other" brand, and
 * uniqueness across the catalog.
 */
import type { StateCode } from "./geo-data";
import type { Rng } from "./rng";
import type { Brand } from "./station-catalog";
import type { Location } from "./station-location";

/** Independent or regional operators used for the "other" brand; `states` limits a real regional name to its area. */
const INDEPENDENT_CHAINS: readonly { name: (city: string, n: number) => string; states?: readonly StateCode[] }[] = [
  { name: (city) => `Sapp Bros. ${city}`, states: ["NE", "IA", "CO", "UT", "WY", "MO", "SD", "IL", "PA"] },
  { name: (city) => `Bosselman Travel Center ${city}`, states: ["NE", "KS", "MO", "WY"] },
  { name: (_city, n) => `Road Ranger #${n}`, states: ["IL", "IA", "WI", "MO", "IN", "KY", "TX", "OK", "NE"] },
  { name: (_city, n) => `Town Pump #${n}`, states: ["MT"] },
  { name: (_city, n) => `Maverik #${n}`, states: ["UT", "ID", "NV", "WY", "CO", "NM", "MT", "AZ"] },
  { name: (city) => `Wilco Travel Plaza ${city}`, states: ["NC", "SC", "VA", "GA", "TN", "AL"] },
  { name: (city) => `Petro-Express ${city}` },
  { name: (city) => `Roady's ${city}` },
  { name: (city) => `AMBEST ${city}` },
];
const INDEPENDENT_OWNERS = [
  "Joe",
  "Bubba",
  "Hank",
  "Earl",
  "Buddy",
  "Rudy",
  "Smitty",
  "Dusty",
  "Lucky",
  "Red",
  "Mack",
  "Gus",
  "Rosie",
  "Dot",
  "Pete",
  "Walt",
  "Betty",
  "Sal",
] as const;
const INDEPENDENT_NAMES = [
  "Big Rig Fuel Stop",
  "Crossroads Travel Center",
  "Interstate Fuel Stop",
  "Midway Travel Plaza",
  "Eagle Fuel Stop",
  "Prairie Fuel Stop",
  "Road King Truck Plaza",
  "Diesel Depot",
  "Four Corners Truck Stop",
  "Freeway Fuel & Food",
  "Gateway Travel Plaza",
  "Long Haul Fuel Center",
] as const;

function independentName(rng: Rng, loc: Location, n: number): string {
  const roll = rng.next();
  if (roll < 0.35) {
    const chains = INDEPENDENT_CHAINS.filter((c) => !c.states || c.states.includes(loc.state));
    return rng.pick(chains).name(loc.city, n);
  }
  if (roll < 0.6)
    return `${rng.pick(INDEPENDENT_OWNERS)}'s ${rng.pick(["Truck Plaza", "Truck Stop", "Fuel Stop", "Travel Center"])}`;
  if (roll < 0.8) return `${loc.city} ${rng.pick(["Truck Plaza", "Travel Plaza", "Truck Stop", "Fuel Center"])}`;
  if (loc.route && roll < 0.88) return `${loc.route} Truck Stop`;
  return rng.pick(INDEPENDENT_NAMES);
}

export function stationName(rng: Rng, brand: Brand, loc: Location, n: number): string {
  switch (brand) {
    case "pilot":
      return `Pilot Travel Center #${n}`;
    case "loves":
      return `Love's Travel Stop #${n}`;
    case "ta":
      return `TA ${loc.city}`;
    case "petro":
      return `Petro ${loc.city}`;
    case "flyingj":
      return `Flying J Travel Center #${n}`;
    case "kwiktrip":
      return `Kwik Trip #${n}`;
    case "caseys":
      return `Casey's #${n}`;
    case "other":
      return independentName(rng, loc, n);
  }
}

/** Names are unique: a clash gets the city ("Gateway Travel Plaza - Tulsa"), then a side of town, then the number. */
export function uniqueName(base: string, city: string, used: Set<string>, n: number): string {
  const located = base.includes(city) ? base : `${base} - ${city}`;
  const candidates = [
    base,
    located,
    ...["East", "West", "North", "South"].map((d) => `${located} ${d}`),
    `${located} #${n}`,
  ];
  for (const candidate of candidates) {
    if (!used.has(candidate)) {
      used.add(candidate);
      return candidate;
    }
  }
  let i = 2;
  while (used.has(`${located} (${i})`)) i++;
  used.add(`${located} (${i})`);
  return `${located} (${i})`;
}
