import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { MirrorStore, readCatalog, recordCatalogWalk } from "@/lib/mirror";
import { fromMinorUnits, type Station, toMinorUnits, type Transaction } from "@/lib/model";
import { type MirrorUpstream, startMirrorUpstream, upstreamWalk } from "@/test/mirror-stack";
import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";

import { savingsFor } from "./savings-query";
import { refreshComparisons, writeJudgedBatch } from "./savings-stored";
import { judgePendingBatch } from "./savings-stored-judge";
import { storedSavingsFor } from "./savings-stored-read";

// Issue 25, PostgreSQL concurrency of the stored savings comparisons: the sync's writes marking fills pending, a
// catalog walk marking the fills it reaches, and the background computation writing judgements run at the same time,
// from several instances (here: separate connection pools on one real PostgreSQL database, the real sandbox's fleet in
// both profiles). The interleavings are made deterministic: a sync transaction is held open between its two writes
// while a judged batch's write waits on it (seen in pg_stat_activity, not timed). Neither deadlocks (the batch writes
// the fills in the opposite order), no mark is lost (a fill changed after its judgement was read stays pending), and
// once everything is computed the stored figures are exactly savingsFor's.

const CUSTOMER = "PFL";
const HOUR_MS = 3_600_000;
const PARAMS = { radiusMiles: 10, windowMs: 24 * HOUR_MS };
const ALL = { from: "1970-01-01", to: "9999-12-31" };

const repriced = (t: Transaction, delta: number): Transaction => ({
  ...t,
  pricePerGallon: fromMinorUnits(BigInt(Math.max(1_000, Number(toMinorUnits(t.pricePerGallon, 3)) + delta)), 3),
});

/** A promise resolved from outside (Node 20 has no Promise.withResolvers). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

let postgres: PostgresServer;
let databases = 0;
beforeAll(async () => {
  postgres = await startPostgresServer();
});
afterAll(async () => {
  await postgres.stop();
});

describe.each(["primary", "alternative"] as const)("stored comparisons under concurrency (%s profile)", (profile) => {
  let stack: MirrorUpstream;
  /** Three "instances": the sync's, the background loop's, and one that watches the others' locks. */
  let sync: MirrorStore;
  let loop: MirrorStore;
  let watch: MirrorStore;
  let fills: Transaction[];
  let catalog: Station[];
  let walkMs: number;
  beforeAll(async () => {
    stack = await startMirrorUpstream(profile);
    const url = await postgres.createDatabase(`locks_${String(++databases)}`);
    sync = await MirrorStore.open({ databaseUrl: url });
    loop = await MirrorStore.open({ databaseUrl: url });
    watch = await MirrorStore.open({ databaseUrl: url });
    fills = await upstreamWalk(stack.client, stack.pfl);
    await sync.upsertTransactions(CUSTOMER, fills, Date.now());
    catalog = await stack.client.listAllLocations(stack.pfl, {}, { priority: "interactive" });
    walkMs = Math.min(...fills.map((t) => Date.parse(t.at))) + 20 * 24 * HOUR_MS;
    const stamp = new Date(walkMs - 12 * HOUR_MS).toISOString();
    catalog = catalog.map((s) => ({ ...s, priceUpdatedAt: stamp }));
    await recordCatalogWalk(sync, CUSTOMER, catalog, walkMs);
    await refreshComparisons(loop, CUSTOMER, PARAMS);
  });
  afterAll(async () => {
    await Promise.all([sync.close(), loop.close(), watch.close()]);
    await stack.upstream.stop();
  });

  const completed = () => fills.filter((t) => t.status === "completed");
  const pendingOf = async (ids: string[]) =>
    (
      await watch.db
        .selectFrom("mirror_fill_comparisons")
        .select(["tx_id", "pending"])
        .where("customer_id", "=", CUSTOMER)
        .where("tx_id", "in", ids)
        .execute()
    ).map((r) => [r.tx_id, r.pending] as const);
  /** Until another connection of the database waits for a lock (the batch's write behind the open sync). */
  async function untilSomeoneWaits(): Promise<void> {
    for (let i = 0; i < 600; i++) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(watch.db);
      if (Number(rows[0]?.n ?? 0) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the batch's write never waited for the open sync transaction");
  }
  async function expectExactlySavingsFor(): Promise<void> {
    await refreshComparisons(loop, CUSTOMER, PARAMS);
    const direct = await savingsFor(loop, CUSTOMER, ALL, {}, await readCatalog(loop, CUSTOMER), PARAMS);
    const stored = await storedSavingsFor(loop, CUSTOMER, ALL, {});
    expect(stored.figures).toEqual(direct.figures);
    expect(stored.top).toEqual(direct.top);
  }

  it("a sync writing while a judged batch is written: no deadlock, and the fills it changed stay pending", async () => {
    const [x, y] = completed();
    if (x === undefined || y === undefined) throw new Error("the sandbox fleet has no two completed fills");
    // Both fills changed by a first sync write: pending; their judgements read now.
    await sync.upsertTransactions(CUSTOMER, [repriced(x, 7), repriced(y, 7)], Date.now());
    const judged = await judgePendingBatch(loop, { customerId: CUSTOMER, params: PARAMS, limit: 10_000 });
    // The batch writes y before x; the sync below marks x, then (while the batch waits) y.
    const order = (id: string) => (id === y.id ? 0 : id === x.id ? 2 : 1);
    judged.rows.sort((a, b) => order(a.tx_id) - order(b.tx_id));
    const held = signal();
    const first = signal();
    const syncWrite = sync.transaction(async (trx) => {
      await sync.upsertTransactions(CUSTOMER, [repriced(x, 13)], Date.now(), trx);
      first.resolve();
      await held.promise;
      await sync.upsertTransactions(CUSTOMER, [repriced(y, 13)], Date.now(), trx);
    });
    await first.promise;
    const batchWrite = writeJudgedBatch(loop, CUSTOMER, judged);
    await untilSomeoneWaits();
    held.resolve();
    await Promise.all([syncWrite, batchWrite]);
    fills = fills.map((t) => (t.id === x.id ? repriced(x, 13) : t.id === y.id ? repriced(y, 13) : t));
    for (const [, pending] of await pendingOf([x.id, y.id])) expect(pending).toBeGreaterThan(0);
    await expectExactlySavingsFor();
  });

  it("an older batch written after a newer one (two instances): the newer judgement stays, nothing pending", async () => {
    const [, , z] = completed();
    if (z === undefined) throw new Error("the sandbox fleet has no three completed fills");
    await sync.upsertTransactions(CUSTOMER, [repriced(z, 40)], Date.now());
    const older = await judgePendingBatch(loop, { customerId: CUSTOMER, params: PARAMS, limit: 10_000 });
    const newer = repriced(z, 400);
    fills = fills.map((t) => (t.id === z.id ? newer : t));
    await sync.upsertTransactions(CUSTOMER, [newer], Date.now());
    const fresh = await judgePendingBatch(watch, { customerId: CUSTOMER, params: PARAMS, limit: 10_000 });
    await writeJudgedBatch(watch, CUSTOMER, fresh);
    await writeJudgedBatch(loop, CUSTOMER, older);
    // No refresh before comparing: what is stored now must already be the newer judgement.
    const direct = await savingsFor(loop, CUSTOMER, ALL, {}, await readCatalog(loop, CUSTOMER), PARAMS);
    expect((await storedSavingsFor(loop, CUSTOMER, ALL, {})).figures).toEqual(direct.figures);
    expect(await pendingOf([z.id])).toEqual([[z.id, 0]]);
    const stored = await watch.db
      .selectFrom("mirror_fill_comparisons")
      .select("price_milli")
      .where("customer_id", "=", CUSTOMER)
      .where("tx_id", "=", z.id)
      .executeTakeFirst();
    expect(stored?.price_milli).toBe(Number(toMinorUnits(newer.pricePerGallon, 3)));
  });

  it("a catalog walk recorded between a batch's reading and its write: the fills it reaches stay pending", async () => {
    // Fills around the walk below (it reaches fills within a week of the spans it changes), changed by a sync.
    walkMs += 24 * HOUR_MS;
    const near = new Set(
      completed()
        .sort((a, b) => Math.abs(Date.parse(a.at) - walkMs) - Math.abs(Date.parse(b.at) - walkMs))
        .slice(0, 50)
        .map((t) => t.id),
    );
    fills = fills.map((t) => (near.has(t.id) ? repriced(t, 1) : t));
    await sync.upsertTransactions(
      CUSTOMER,
      fills.filter((t) => near.has(t.id)),
      Date.now(),
    );
    const judged = await judgePendingBatch(loop, { customerId: CUSTOMER, params: PARAMS, limit: 10_000 });
    expect(judged.rows.length).toBeGreaterThan(0);
    // Every station repriced and seen again: the walk reaches the fills around the spans it changes.
    catalog = catalog.map((s) => ({
      ...s,
      price: s.price === null ? null : fromMinorUnits(toMinorUnits(s.price, 3) + 21n, 3),
      priceUpdatedAt: new Date(walkMs - HOUR_MS).toISOString(),
    }));
    await recordCatalogWalk(sync, CUSTOMER, catalog, walkMs);
    // The fills the walk marked after the batch read their counters (the counter moved on).
    const read = new Map(judged.rows.map((r) => [r.tx_id, r.pending]));
    const marked = (await pendingOf([...read.keys()])).filter(([id, pending]) => pending > (read.get(id) ?? 0));
    expect(marked.length).toBeGreaterThan(0);
    await writeJudgedBatch(loop, CUSTOMER, judged);
    const after = new Map(await pendingOf(marked.map(([id]) => id)));
    for (const [id] of marked) expect(after.get(id)).toBeGreaterThan(0);
    await expectExactlySavingsFor();
  });

  it("syncs, walks and two instances' background batches all at once: none fails, the figures are exact", async () => {
    const some = completed();
    const writes = [0, 1, 2, 3].map(async (k) => {
      // Each writer edits fills in its own order (forward, backward, strided): their row locks cross.
      const mine = some.filter((_, i) => i % 4 === k);
      const edited = (k % 2 === 0 ? mine : [...mine].reverse()).map((t) => repriced(t, 3 + k));
      for (let i = 0; i < edited.length; i += 25) await sync.upsertTransactions(CUSTOMER, edited.slice(i, i + 25), 1);
      return edited;
    });
    walkMs += 6 * HOUR_MS;
    const moved = catalog.map((s, i) =>
      s.price === null || i % 3 !== 0 ? s : { ...s, price: fromMinorUnits(toMinorUnits(s.price, 3) - 9n, 3) },
    );
    const batches = [loop, watch].map((store) => refreshComparisons(store, CUSTOMER, PARAMS, { batch: 40 }));
    const [edited] = await Promise.all([
      Promise.all(writes),
      recordCatalogWalk(watch, CUSTOMER, moved, walkMs),
      Promise.all(batches),
    ]);
    catalog = moved;
    const byId = new Map(edited.flat().map((t) => [t.id, t]));
    fills = fills.map((t) => byId.get(t.id) ?? t);
    await expectExactlySavingsFor();
  });
});
