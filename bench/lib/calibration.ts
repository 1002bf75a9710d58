/**
 * The CPU calibration figure (issue 26): a fixed workload timed in the same run as the figures, so a report can say
 * each time also as a multiple of it and two hosts can be compared (a slower machine made the same code look 3×
 * slower). The workload is the bench's own mix — JSON, regular expressions, sorting, and a SQLite aggregation through
 * better-sqlite3 — on fixed, generated data; the figure is the median of several runs after a warm-up.
 */
import Database from "better-sqlite3";

import { median } from "./report";

const RECORDS = 50_000;
const RUNS = 5;

/** A fixed pseudo-random sequence (a linear congruential generator), so every host does the same work. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state;
  };
}

function workload(db: Database.Database): number {
  const next = numbers(25);
  const records = Array.from({ length: RECORDS }, (_, i) => {
    const n = next();
    return { id: `tx-${String(i)}`, driver: `dr-${String(n % 200)}`, cents: n % 50_000, at: 1_700_000_000_000 + n };
  });
  const parsed = JSON.parse(JSON.stringify(records)) as typeof records;
  const matched = parsed.filter((r) => /^dr-1\d*$/.test(r.driver)).length;
  parsed.sort((a, b) => a.cents - b.cents || a.id.localeCompare(b.id));
  db.exec("DELETE FROM t");
  const insert = db.prepare("INSERT INTO t (driver, cents) VALUES (?, ?)");
  db.transaction(() => {
    for (const r of parsed) insert.run(r.driver, r.cents);
  })();
  const rows = db.prepare("SELECT driver, sum(cents) AS s FROM t GROUP BY driver ORDER BY s DESC").all();
  return matched + rows.length;
}

/** The calibration workload's median time in milliseconds on this host, now. */
export function calibrate(): number {
  const db = new Database(":memory:");
  try {
    db.exec("CREATE TABLE t (driver TEXT NOT NULL, cents INTEGER NOT NULL)");
    workload(db); // warm-up: JIT, SQLite's page cache
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      workload(db);
      times.push(performance.now() - started);
    }
    return median(times);
  } finally {
    db.close();
  }
}
