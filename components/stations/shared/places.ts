import type { Station } from "@/lib/model";
import { US_STATE_CODES } from "@/lib/model/us-states";

import { type LatLng, parseLatLng, pointLabel } from "./lat-lng";

/** A place a typed name can mean: where it is, how it reads, and how many of the catalog's stations are there. */
export interface Place {
  point: LatLng;
  label: string;
  stationCount: number;
}

/**
 * Where "near" a typed place is, offline: coordinates ("35.22, -101.83"), a city with or without its state
 * ("Amarillo, TX", "amarillo"), or a state ("TX") — the centre of the catalog's stations there (the catalog is the only
 * gazetteer the dashboard has). A city name alone that several states have ("Springfield") gives one place per state,
 * sorted by label, for the person to choose from: averaging them would put the point between the cities. Empty when
 * nothing matches.
 */
export function resolvePlace(query: string, stations: readonly Station[]): Place[] {
  const text = query.trim();
  if (text === "") return [];
  const coordinates = parseLatLng(text);
  if (coordinates !== null) return [{ point: coordinates, label: pointLabel(coordinates), stationCount: 0 }];
  const parts = text.split(/\s*,\s*|\s+(?=[A-Za-z]{2}$)/).filter((p) => p !== "");
  const last = parts.at(-1)?.toUpperCase() ?? "";
  const state = parts.length >= 1 && (US_STATE_CODES as readonly string[]).includes(last) ? last : null;
  const city = (state === null ? parts.join(" ") : parts.slice(0, -1).join(" ")).toLowerCase();
  // One group per state: a state's own centre, or one city of that name in that state.
  const groups = new Map<string, Station[]>();
  for (const s of stations) {
    if ((state !== null && s.state !== state) || (city !== "" && s.city.toLowerCase() !== city)) continue;
    const group = groups.get(s.state);
    if (group === undefined) groups.set(s.state, [s]);
    else group.push(s);
  }
  const places = [...groups.values()].flatMap((matches): Place[] => {
    const [first] = matches;
    if (first === undefined) return [];
    return [
      {
        point: {
          lat: matches.reduce((sum, s) => sum + s.lat, 0) / matches.length,
          lng: matches.reduce((sum, s) => sum + s.lng, 0) / matches.length,
        },
        label: city === "" ? first.state : `${first.city}, ${first.state}`,
        stationCount: matches.length,
      },
    ];
  });
  return places.sort((a, b) => a.label.localeCompare(b.label));
}
