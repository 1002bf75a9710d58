import { card, contextOf, duration, gallons, localDate, localMoment } from "./describe";
import { classOf } from "./history";
import { groupBy, isFill } from "./rules-frequency";
import type { Purchase, RawHit, RuleInput, RuleOutcome } from "./types";

const MINUTE_MS = 60_000;
// Products are judged by the one classifier (lib/model/product-classes): "Diesel", "ULSD #2"; "AdBlue", "Diesel
// Exhaust Fluid".
const isDefProduct = (p: Purchase) => classOf(p.product) === "def";
const hasDiesel = (p: Purchase) => classOf(p.product) === "diesel" && p.gallonsMilli > 0;
const hasDef = (p: Purchase) => p.defGallonsMilli > 0 || isDefProduct(p);
const defGallons = (p: Purchase) => (p.defGallonsMilli > 0 ? p.defGallonsMilli : p.gallonsMilli);

/**
 * DEF bought with no diesel: not on the same purchase and not by the same truck (the same card when there is no truck)
 * within the window either side. DEF goes into diesel engines only, so DEF alone is worth a question.
 */
export function defWithoutDiesel({ purchases, thresholds }: RuleInput): RuleOutcome {
  const windowMs = thresholds.defDieselWindowMinutes * MINUTE_MS;
  const fills = purchases.filter(isFill);
  const keyOf = (p: Purchase) => (p.truckId === null ? `card ${p.cardLast4}` : `truck ${p.truckId}`);
  const dieselBy = groupBy(fills.filter(hasDiesel), keyOf);
  const hits: RawHit[] = [];
  for (const p of fills) {
    if (!hasDef(p) || hasDiesel(p)) continue;
    const near = (dieselBy.get(keyOf(p)) ?? []).some((d) => Math.abs(d.atMs - p.atMs) <= windowMs);
    if (near) continue;
    const subject = p.truckId === null ? card(p.cardLast4) : `truck ${p.truckId}`;
    const fuel = isDefProduct(p) ? "" : ` with ${gallons(p.gallonsMilli)} of ${p.product}`;
    hits.push({
      rule: "def-without-diesel",
      sentence: () =>
        `${gallons(defGallons(p))} of DEF bought${fuel} for ${subject} by ${p.driverName} (${localMoment(p)} local time), with no diesel on that purchase or within ${duration(windowMs)} of it.`,
      atMs: p.atMs,
      localDate: localDate(p),
      transactionIds: [p.id],
      context: contextOf(
        [p],
        p.truckId === null ? { card: p.cardLast4 } : { truck: p.truckId },
        `Purchases for ${subject} that day`,
      ),
    });
  }
  return { hits, notJudged: null };
}

/**
 * Failed attempts followed, within the window, by a purchase that went through on another card by the same driver or
 * for the same truck: one hit per successful purchase, listing the failed attempts before it that no earlier success
 * has listed — each failed attempt is in one hit only (a truck fill and a reefer fill after one declined card are one
 * finding, not two).
 */
export function failedThenOtherCard({ purchases, thresholds }: RuleInput): RuleOutcome {
  const windowMs = thresholds.failedWindowMinutes * MINUTE_MS;
  const failed = purchases.filter((p) => p.status === "failed");
  const failedByDriver = groupBy(failed, (p) => p.driverId);
  const failedByTruck = groupBy(failed, (p) => p.truckId);
  const hits: RawHit[] = [];
  const reported = new Set<string>();
  // Oldest success first (the input is in time order; sorted again so the rule does not depend on it).
  const successes = purchases.filter(isFill).sort((a, b) => a.atMs - b.atMs || a.id.localeCompare(b.id));
  for (const s of successes) {
    const candidates = [
      ...(failedByDriver.get(s.driverId) ?? []),
      ...(s.truckId === null ? [] : (failedByTruck.get(s.truckId) ?? [])),
    ];
    const before = new Map<string, Purchase>();
    for (const f of candidates)
      if (!reported.has(f.id) && f.cardLast4 !== s.cardLast4 && f.atMs <= s.atMs && s.atMs - f.atMs <= windowMs)
        before.set(f.id, f);
    if (before.size === 0) continue;
    for (const id of before.keys()) reported.add(id);
    const attempts = [...before.values()].sort((a, b) => a.atMs - b.atMs || a.id.localeCompare(b.id));
    const first = attempts[0];
    if (first === undefined) continue;
    const cards = [...new Set(attempts.map((f) => f.cardLast4))].map(card).join(", ");
    const n = attempts.length;
    hits.push({
      rule: "failed-then-other-card",
      sentence: () =>
        `${String(n)} failed ${n === 1 ? "attempt" : "attempts"} on ${cards}, then ${gallons(s.gallonsMilli)} of ${s.product} on ${card(s.cardLast4)} ${duration(s.atMs - first.atMs)} later, by ${s.driverName}${s.truckId === null ? "" : ` (truck ${s.truckId})`} at ${s.stationName} (${localMoment(first)} local time).`,
      atMs: first.atMs,
      localDate: localDate(first),
      transactionIds: [...attempts.map((f) => f.id), s.id],
      context: contextOf([first, s], { driver: s.driverId }, `Purchases by ${s.driverName} on those days`),
    });
  }
  return { hits, notJudged: null };
}
