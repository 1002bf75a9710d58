import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";

import { TEST_ANCHOR } from "../test/constants";
import { Queries } from "./queries";
import type { TransactionFilter } from "./rows";
import { addTransactions } from "./seed";
import { likePattern } from "./transaction-search";

/**
 * The optimised list query (day counts, disjoint search parts, two page strategies) must give exactly what the
 * plain SQL gives. The reference below is the obvious query: one OR, one COUNT, LIMIT/OFFSET.
 */
function reference(
  db: Database.Database,
  filter: TransactionFilter,
  page: number,
  limit: number,
): { total: number; ids: string[] } {
  const where = ["t.customer_pk = @customerPk"];
  if (filter.fromSec !== undefined) where.push("t.at_utc >= @fromSec");
  if (filter.toSec !== undefined) where.push("t.at_utc <= @toSec");
  if (filter.status !== undefined) where.push("t.status = @status");
  if (filter.search)
    where.push(
      "(s.name LIKE @pattern ESCAPE '\\' OR d.name LIKE @pattern ESCAPE '\\' OR c.last4 LIKE @pattern ESCAPE '\\')",
    );
  const from = `FROM transactions t JOIN stations s ON s.pk = t.station_pk JOIN drivers d ON d.pk = t.driver_pk JOIN cards c ON c.pk = t.card_pk WHERE ${where.join(" AND ")}`;
  const params = { ...filter, pattern: likePattern(filter.search ?? "") };
  const total = (db.prepare(`SELECT COUNT(*) AS n ${from}`).get(params) as { n: number }).n;
  const ids = db
    .prepare(`SELECT t.id ${from} ORDER BY t.at_utc DESC, t.pk DESC LIMIT @limit OFFSET @offset`)
    .pluck()
    .all({ ...params, limit, offset: (page - 1) * limit }) as string[];
  return { total, ids };
}

describe("Queries.transactionPage", () => {
  let dir: string;
  let db: Database.Database;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "ffd-queries-"));
    copyFileSync(inject("sandboxTemplateDb"), join(dir, "q.db"));
    db = new Database(join(dir, "q.db"));
    // Ties: several transactions at the very same second, and some exactly on day edges.
    addTransactions(db, "PFL", 5, Date.parse("2026-01-10T00:00:00Z") / 1000, 11);
    addTransactions(db, "PFL", 3, Date.parse("2026-01-10T23:59:59Z") / 1000, 12);
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const anchor = Math.floor(TEST_ANCHOR.getTime() / 1000);
  const span = 730 * 86_400;
  const day = fc.integer({ min: Math.floor((anchor - span) / 86_400), max: Math.floor(anchor / 86_400) });
  const instant = fc.oneof(
    fc.integer({ min: anchor - span, max: anchor }),
    day.map((d) => d * 86_400), // day starts
    day.map((d) => d * 86_400 + 86_399), // day ends
    // Edges of the 32-day buckets of tx_station_buckets, and a day either side of them.
    fc
      .tuple(day, fc.constantFrom(-86_400, -1, 0, 86_399, 86_400))
      .map(([d, shift]) => Math.floor(d / 32) * 32 * 86_400 + shift),
  );
  const filterArb = fc.record(
    {
      customerPk: fc.constantFrom(1, 2),
      fromSec: instant,
      toSec: instant,
      status: fc.constantFrom("completed", "pending", "failed"),
      search: fc.constantFrom("a", "e", "smith", "pilot", "love", "1", "00", "travel", "garcia", "zz", "%", "Truck"),
    },
    { requiredKeys: ["customerPk"] },
  );

  // The fourth value: the stations part is counted from tx_station_buckets (the server's way) or from its index.
  for (const [materializeMax, complementBelow, seekAfter, stationBuckets] of [
    [0, 0, 0, true],
    [50, 0, 0, true],
    [20_000, 0, 0, true],
    [0, 1.01, 0, true],
    [0, 1.01, 1e9, true],
    [0, 0, 1e9, true],
    [20_000, 1.01, 0, true],
    [0, 0.3, 5_000, true],
    [0, 0, 500, true],
    [0, 1.01, 500, true],
    [0, 0, 0, false],
    [0, 0, 500, false],
    [0, 0, 1e9, false],
    [20_000, 0, 0, false],
    [0, 0.3, 500, false],
  ] as const) {
    it(`matches the plain SQL for any filter and page (materialize ≤ ${String(materializeMax)}, complement < ${String(complementBelow)}, seek ≥ ${String(seekAfter)}, station buckets ${stationBuckets ? "on" : "off"})`, () => {
      const queries = new Queries(db, { materializeMax, complementBelow, seekAfter, stationBuckets });
      fc.assert(
        fc.property(
          filterArb,
          fc.integer({ min: 1, max: 40 }),
          fc.constantFrom(1, 7, 50, 200),
          (filter, page, limit) => {
            const got = queries.transactionPage(filter, { page, limit });
            const want = reference(db, filter, page, limit);
            expect(got.total).toBe(want.total);
            expect(got.rows.map((r) => r.id)).toEqual(want.ids);
          },
        ),
        { numRuns: 100 },
      );
    });
  }

  it("every page of a broad search, walked from the top, by day seek and from the oldest end, joins to the plain list", () => {
    for (const [complementBelow, stationBuckets] of [
      [0, false],
      [1.01, true],
      [0, true],
    ] as const) {
      const queries = new Queries(db, { materializeMax: 0, complementBelow, seekAfter: 300, stationBuckets });
      for (const search of ["a", "pilot", "e"]) {
        const filter = { customerPk: 1, search };
        const want = reference(db, filter, 1, 1_000_000);
        const got: string[] = [];
        for (let page = 1; got.length < want.total; page++) {
          const result = queries.transactionPage(filter, { page, limit: 50 });
          expect(result.total).toBe(want.total);
          expect(result.rows.length).toBeGreaterThan(0);
          got.push(...result.rows.map((r) => r.id));
        }
        expect(got).toEqual(want.ids);
      }
    }
  });

  it("keeps the station buckets equal to the transactions through inserts, updates and deletes", () => {
    const counts = () =>
      db
        .prepare(
          "SELECT customer_pk, bucket, station_pk, status, n FROM tx_station_buckets WHERE n != 0 ORDER BY 1, 2, 3, 4",
        )
        .all();
    const truth = () =>
      db
        .prepare(
          "SELECT customer_pk, at_utc / 2764800 AS bucket, station_pk, status, COUNT(*) AS n FROM transactions GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4",
        )
        .all();
    expect(counts()).toEqual(truth());
    const [id] = addTransactions(db, "PFL", 1, Date.parse("2026-02-01T12:00:00Z") / 1000, 14);
    expect(counts()).toEqual(truth());
    db.prepare(
      "UPDATE transactions SET at_utc = at_utc - 40 * 86400, status = 'failed', station_pk = (SELECT MAX(pk) FROM stations) WHERE id = ?",
    ).run(id);
    expect(counts()).toEqual(truth());
    db.prepare("DELETE FROM transactions WHERE id = ?").run(id);
    expect(counts()).toEqual(truth());
  });

  it("keeps the day counts exact through inserts, updates and deletes", () => {
    const queries = new Queries(db);
    const filter = {
      customerPk: 1,
      fromSec: Date.parse("2026-01-10T00:00:00Z") / 1000,
      toSec: Date.parse("2026-01-10T23:59:59Z") / 1000,
    };
    const before = queries.transactionPage(filter, { page: 1, limit: 200 }).total;
    const [id] = addTransactions(db, "PFL", 1, filter.fromSec + 3600, 13);
    expect(queries.transactionPage(filter, { page: 1, limit: 200 }).total).toBe(before + 1);
    db.prepare("UPDATE transactions SET at_utc = at_utc + 86400, status = 'completed' WHERE id = ?").run(id);
    expect(queries.transactionPage(filter, { page: 1, limit: 200 }).total).toBe(before);
    expect(
      queries
        .transactionPage(
          { ...filter, fromSec: filter.fromSec + 86_400, toSec: filter.toSec + 86_400, status: "completed" },
          { page: 1, limit: 200 },
        )
        .rows.map((r) => r.id),
    ).toContain(id);
    db.prepare("DELETE FROM transactions WHERE id = ?").run(id);
    expect(
      reference(db, { ...filter, fromSec: filter.fromSec + 86_400, toSec: filter.toSec + 86_400 }, 1, 200).total,
    ).toBe(
      queries.transactionPage(
        { ...filter, fromSec: filter.fromSec + 86_400, toSec: filter.toSec + 86_400 },
        { page: 1, limit: 200 },
      ).total,
    );
  });
});
