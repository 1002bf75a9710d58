import type { CatalogStation } from "@/lib/mirror";
import { fromMinorUnits } from "@/lib/model";
import type { MissedSaving } from "@/lib/model/insight-savings";

import type { Comparison } from "./savings-compare";
import type { SavingsFill } from "./savings-types";

const MINUTE_MS = 60_000;

/** Micro-dollars to dollars with 2 digits, rounded half up (the sums are never negative). */
export const dollars = (micro: bigint): string => fromMinorUnits((micro + 5_000n) / 10_000n, 2);

const stationOf = (s: CatalogStation) => ({ id: s.id, name: s.name, city: s.city, state: s.state });

/** The largest missed savings so far, largest first (ties: the later fill first), at most `size`. */
export class TopMissed {
  readonly #items: { micro: number; fill: SavingsFill; comparison: Comparison }[] = [];

  constructor(private readonly size: number) {}

  offer(micro: number, fill: SavingsFill, comparison: Comparison): void {
    const before = (t: { micro: number; fill: SavingsFill }) =>
      micro > t.micro || (micro === t.micro && fill.atMs > t.fill.atMs);
    const last = this.#items.at(-1);
    if (this.#items.length >= this.size && (last === undefined || !before(last))) return;
    const at = this.#items.findIndex(before);
    this.#items.splice(at === -1 ? this.#items.length : at, 0, { micro, fill, comparison });
    if (this.#items.length > this.size) this.#items.pop();
  }

  list(): MissedSaving[] {
    return this.#items.flatMap(({ micro, fill, comparison }) => {
      const cheapest = comparison.cheapest;
      if (cheapest === null) return [];
      return [
        {
          transactionId: fill.id,
          reference: fill.reference,
          at: new Date(fill.atMs).toISOString(),
          localDate: fill.localDate,
          driver: { id: fill.driverId, name: fill.driverName },
          station: { id: fill.stationId, name: fill.stationName, city: fill.stationCity, state: fill.stationState },
          gallons: fromMinorUnits(BigInt(fill.gallonsMilli), 3),
          paid: fromMinorUnits(BigInt(fill.priceMilli), 3),
          cheaper: {
            ...stationOf(cheapest.neighbour.station),
            price: fromMinorUnits(BigInt(cheapest.observed.priceMilli), 3),
            miles: cheapest.neighbour.miles.toFixed(1),
            apartMinutes: Math.round(cheapest.observed.apartMs / MINUTE_MS),
          },
          saving: dollars(BigInt(micro)),
        },
      ];
    });
  }
}
