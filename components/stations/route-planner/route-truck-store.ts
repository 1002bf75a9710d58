"use client";

import { createLocalStore, useLocalStore } from "@/components/ui/local-store";
import { DEFAULT_TRUCK, type TruckProfile } from "@/lib/route";

import { truckFromStored } from "./route-truck";

/** The Route mode's truck in this browser's localStorage (like the transactions' column choice). */
const truckStore = createLocalStore<TruckProfile>({
  key: "ffd:route:truck",
  parse: truckFromStored,
  fallback: DEFAULT_TRUCK,
});

/** This browser's truck (the defaults until one is saved) and how to save another. */
export function useStoredTruck(): [TruckProfile, (truck: TruckProfile) => void] {
  return useLocalStore(truckStore);
}
