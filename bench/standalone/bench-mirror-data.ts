/** bench:mirror's generated rows: plausible transactions over 24 months, written straight into a mirror store. */
import {
  enqueueCompletedFills,
  type MirrorStore,
  rebuildLocalBlocks,
  rebuildLocalRollups,
  rebuildRollups,
  toRow,
} from "@/lib/mirror";
import type { Transaction } from "@/lib/model";

export const STATES = [
  "TX",
  "OK",
  "KS",
  "NE",
  "IA",
  "MO",
  "AR",
  "LA",
  "NM",
  "CO",
  "WY",
  "MT",
  "SD",
  "ND",
  "MN",
  "WI",
  "IL",
  "IN",
  "OH",
  "KY",
  "TN",
  "MS",
  "AL",
  "GA",
  "FL",
  "SC",
  "NC",
  "VA",
  "WV",
  "PA",
  "NY",
  "NJ",
  "MD",
  "DE",
  "CT",
  "MA",
  "VT",
  "NH",
  "ME",
  "MI",
  "AZ",
  "UT",
  "NV",
  "CA",
  "OR",
  "WA",
  "ID",
  "RI",
  "AK",
  "HI",
];
const PRODUCTS = ["diesel", "diesel", "diesel", "diesel", "unleaded", "def"];

/** A deterministic row generator (LCG) of plausible transactions over 24 months before `endMs`. */
function* generate(count: number, endMs: number): Generator<Transaction> {
  let seed = 12345;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const span = 730 * 86_400_000;
  for (let i = 0; i < count; i++) {
    const at = endMs - Math.floor((i / count) * span) - Math.floor(next() * 60_000);
    const station = Math.floor(next() * 2500);
    const driver = Math.floor(next() * 200);
    const gallons = 20_000 + Math.floor(next() * 180_000);
    const price = 3_200 + Math.floor(next() * 1_200);
    const r = next();
    yield {
      id: `tx-${String(i).padStart(8, "0")}`,
      reference: `FL${String(i).padStart(10, "0")}`,
      at: new Date(at).toISOString(),
      localOffsetMinutes: -360,
      status: r < 0.9 ? "completed" : r < 0.97 ? "pending" : "failed",
      product: PRODUCTS[Math.floor(next() * PRODUCTS.length)] ?? "diesel",
      gallons: (gallons / 1000).toFixed(3),
      pricePerGallon: (price / 1000).toFixed(3),
      amount: (Math.round((gallons * price) / 10_000) / 100).toFixed(2),
      station: {
        id: `st-${String(station)}`,
        name: `Station ${String(station)}`,
        locNum: String(station),
        city: `City ${String(station % 300)}`,
        state: STATES[station % STATES.length] ?? "TX",
      },
      driver: { id: `dr-${String(driver)}`, name: `Driver ${String(driver)}`, truckId: `T${String(driver)}` },
      card: { last4: String(1000 + (driver % 9000)) },
      def: null,
    };
  }
}

/** Writes the rows in bulk (no per-batch rollup deltas), then computes the rollups from them once. */
export async function fill(store: MirrorStore, rows: number, endMs: number): Promise<void> {
  const batch: ReturnType<typeof toRow>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const chunk = batch.splice(0);
    await store.transaction(async (trx) => {
      for (let i = 0; i < chunk.length; i += 1000)
        await trx
          .insertInto("mirror_transactions")
          .values(chunk.slice(i, i + 1000))
          .execute();
    });
  };
  for (const t of generate(rows, endMs)) {
    batch.push(toRow("BENCH", t, endMs));
    if (batch.length >= 50_000) await flush();
  }
  await flush();
  await store.transaction(async (trx) => {
    await rebuildRollups(trx);
    await rebuildLocalRollups(trx);
    await rebuildLocalBlocks(trx);
    await enqueueCompletedFills(trx);
  });
}
