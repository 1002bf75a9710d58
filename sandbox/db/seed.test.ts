import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

import { migrate } from "./schema";
import { DEFAULT_TRANSACTIONS, DEMO_KEYS, seedDatabase, type SeedOptions } from "./seed";
import { EXCEPTION_CASE_ROWS } from "./seed-exceptions";

const ANCHOR = new Date("2026-06-15T12:00:00Z");

function seeded(options: Partial<SeedOptions> = {}): Database.Database {
  const db = new Database(":memory:");
  migrate(db);
  seedDatabase(db, { seed: 99, anchor: ANCHOR, stations: 300, transactions: 2000, ...options });
  return db;
}

/** Every table's rows in a stable order; key hashes differ by their random salt, so they are left out. */
function dump(db: Database.Database): Record<string, unknown[]> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    tables.map((table) => {
      const rows = db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all() as Record<string, unknown>[];
      return [table, rows.map(({ secret_hash: _salted, ...rest }) => rest)];
    }),
  );
}

describe("seedDatabase", () => {
  it("is deterministic: the same seed, sizes and anchor give identical data; another seed gives other data", () => {
    const a = dump(seeded());
    const b = dump(seeded());
    expect(a).toEqual(b);
    expect(dump(seeded({ seed: 100 })).transactions).not.toEqual(a.transactions);
  });

  it("creates at least two customers and the documented demo keys, storing only scrypt hashes", () => {
    const db = seeded();
    expect(db.prepare("SELECT code FROM customers ORDER BY code").pluck().all()).toEqual(["CHI", "PFL"]);
    const keys = db
      .prepare("SELECT label, secret_hash, revoked_at, allow_ips, scopes FROM api_keys ORDER BY label")
      .all() as {
      label: string;
      secret_hash: string;
      revoked_at: string | null;
      allow_ips: string | null;
      scopes: string;
    }[];
    expect(keys.map((k) => k.label).sort()).toEqual(DEMO_KEYS.map((k) => k.label).sort());
    for (const key of keys) expect(key.secret_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(keys.find((k) => k.label === "demo-revoked")?.revoked_at).not.toBeNull();
    expect(JSON.parse(keys.find((k) => k.label === "demo-allowlist")?.allow_ips ?? "[]")).not.toContain("127.0.0.1");
    expect(JSON.parse(keys.find((k) => k.label === "demo-no-transactions")?.scopes ?? "[]")).not.toContain(
      "transactions",
    );
  });

  it(`gives the demo customer a realistic ${String(DEFAULT_TRANSACTIONS)}-transaction history over 24 months`, () => {
    const db = seeded({ transactions: DEFAULT_TRANSACTIONS, stations: 2500 });
    const pfl = (db.prepare("SELECT pk FROM customers WHERE code = 'PFL'").get() as { pk: number }).pk;
    const count = (where: string) =>
      (
        db.prepare(`SELECT COUNT(*) AS n FROM transactions WHERE customer_pk = ? AND ${where}`).get(pfl) as {
          n: number;
        }
      ).n;
    const total = count("1");
    // The generated history plus the seeded exception cases (./seed-exceptions.ts).
    expect(total).toBe(DEFAULT_TRANSACTIONS + EXCEPTION_CASE_ROWS);
    expect(count("status = 'completed'") / total).toBeGreaterThan(0.9);
    expect(count("status = 'pending'")).toBeGreaterThan(0);
    const failed = count("status = 'failed'") / total;
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(0.05);
    const def = count("def_gallons_milli > 0") / total;
    expect(def).toBeGreaterThan(0.1);
    expect(def).toBeLessThan(0.5);
    // Spread over two years up to the anchor, nothing after it.
    const span = db
      .prepare("SELECT MIN(at_utc) AS lo, MAX(at_utc) AS hi FROM transactions WHERE customer_pk = ?")
      .get(pfl) as { lo: number; hi: number };
    expect(span.hi).toBeLessThan(ANCHOR.getTime() / 1000);
    expect((ANCHOR.getTime() / 1000 - span.lo) / 86_400).toBeGreaterThan(720);
    // Tens of drivers, some without a truck; several cards.
    const drivers = db.prepare("SELECT truck_id FROM drivers WHERE customer_pk = ?").pluck().all(pfl) as (
      string | null
    )[];
    expect(drivers.length).toBeGreaterThanOrEqual(20);
    expect(drivers.filter((t) => t === null).length).toBeGreaterThan(0);
    expect(drivers.filter((t) => t !== null).length).toBeGreaterThan(drivers.length / 2);
    // amount = gallons × price, rounded half up to cents, on every row.
    const wrong = count("amount_cents != (gallons_milli * price_milli + 5000) / 10000");
    expect(wrong).toBe(0);
    // Station-local offsets: several distinct ones (US time zones, with daylight saving).
    expect(
      (db.prepare("SELECT COUNT(DISTINCT tz_offset_min) AS n FROM transactions").get() as { n: number }).n,
    ).toBeGreaterThanOrEqual(4);
  });
});
