import { sql } from "kysely";

import type { TransactionFacets } from "@/lib/model";

import type { MirrorStore } from "./store";

/**
 * The values the list's mirror-only filters can take for one customer: distinct drivers (with their latest name and
 * truck), card last fours, trucks, stations, states and products of the customer's rows. Each is one grouped query
 * over the customer's rows (every index starts with the customer).
 */
export async function facetsOf(store: MirrorStore, customerId: string): Promise<TransactionFacets> {
  const rows = () => store.db.selectFrom("mirror_transactions").where("customer_id", "=", customerId);
  const distinct = async (column: "card_last4" | "truck_id" | "station_state" | "product") => {
    const found = await rows()
      .select(sql<string | null>`${sql.ref(column)}`.as("v"))
      .distinct()
      .orderBy("v")
      .execute();
    return found.map((r) => r.v).filter((v): v is string => v !== null && v !== "");
  };
  const [drivers, stations, cards, trucks, states, products] = await Promise.all([
    rows()
      .select((eb) => ["driver_id", eb.fn.max("driver_name").as("name"), eb.fn.max("truck_id").as("truck")])
      .groupBy("driver_id")
      .execute(),
    rows()
      .select((eb) => [
        "station_id",
        eb.fn.max("station_name").as("name"),
        eb.fn.max("station_city").as("city"),
        eb.fn.max("station_state").as("st"),
      ])
      .groupBy("station_id")
      .execute(),
    distinct("card_last4"),
    distinct("truck_id"),
    distinct("station_state"),
    distinct("product"),
  ]);
  const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
    a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1);
  return {
    drivers: drivers.map((d) => ({ id: d.driver_id, name: d.name, truck: d.truck ?? null })).sort(byName),
    cards,
    trucks,
    stations: stations.map((s) => ({ id: s.station_id, name: s.name, city: s.city, state: s.st })).sort(byName),
    states,
    products,
  };
}
