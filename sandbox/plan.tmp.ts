import Database from "better-sqlite3";
import { Queries } from "./db/queries";
const db = new Database(".data/bench-1000000.db", { readonly: true });
const q = new Queries(db);
const sample = db.prepare("select d.name dn, c.last4, s.name sn from transactions t join drivers d on d.pk=t.driver_pk join cards c on c.pk=t.card_pk join stations s on s.pk=t.station_pk where t.customer_pk=1 order by t.at_utc desc limit 1 offset 776").get() as any;
console.log(sample);
const surname = sample.dn.split(" ").at(-1);
const cases: [string, any, any][] = [
  ["all p1", {}, { page: 1, limit: 50 }],
  ["all mid", {}, { page: 2750, limit: 200 }],
  ["all last", {}, { page: 5000, limit: 200 }],
  ["surname", { search: surname }, { page: 1, limit: 200 }],
  ["surname+status+dates", { search: surname, status: "completed", fromSec: 1748736000, toSec: 1780271999 }, { page: 1, limit: 200 }],
  ["pilot", { search: "pilot" }, { page: 1, limit: 200 }],
  ["a", { search: "a" }, { page: 1, limit: 200 }],
];
for (const [name, f, p] of cases) {
  const t = performance.now();
  let total = 0;
  for (let i = 0; i < 3; i++) total = q.transactionPage({ customerPk: 1, ...f }, p).total;
  console.log(name.padEnd(24), ((performance.now() - t) / 3).toFixed(1), "ms total", total);
}
const st = JSON.stringify(db.prepare("select pk from stations where name like ?").pluck().all(`%${surname}%`));
const dr = JSON.stringify(db.prepare("select pk from drivers where customer_pk=1 and name like ?").pluck().all(`%${surname}%`));
console.log("stations", st, "drivers", dr);
const sql = "SELECT COUNT(*) FROM transactions t WHERE t.customer_pk = 1 AND (t.station_pk IN (SELECT value FROM json_each(@s)) OR t.driver_pk IN (SELECT value FROM json_each(@d)))";
console.log(db.prepare("EXPLAIN QUERY PLAN " + sql).all({ s: st, d: dr }).map((r: any) => "   " + r.detail).join("\n"));
