import { card, contextOf, duration, gallons, hourName, localDate, localMoment, localWall } from "./describe";
import type { Purchase, RawHit, RuleInput, RuleOutcome } from "./types";

const MINUTE_MS = 60_000;

/** A purchase that put fuel in a tank (pending ones too: they are likely to settle); failed attempts are not fills. */
export const isFill = (p: Pick<Purchase, "status">): boolean => p.status !== "failed";

function groupBy<K, T = Purchase>(purchases: readonly T[], keyOf: (p: T) => K | null): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const p of purchases) {
    const key = keyOf(p);
    if (key === null) continue;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(p);
  }
  return groups;
}

export { groupBy };

/**
 * Runs of at least `count` fills on one card (or one truck) whose first and last are at most the window apart (the
 * window's end included). Each fill belongs to one run at most: a run is extended as far as the window allows from
 * its first fill, and the next run starts after it. A truck's run made of exactly a card's run is reported once.
 */
export function rapidFills({ purchases, thresholds }: RuleInput): RuleOutcome {
  const windowMs = thresholds.rapidFillsWindowMinutes * MINUTE_MS;
  const fills = purchases.filter(isFill);
  const hits: RawHit[] = [];
  const seen = new Set<string>();
  const scan = (groups: Map<string, Purchase[]>, subject: (p: Purchase) => { key: "card" | "truck"; text: string }) => {
    for (const group of groups.values()) {
      let i = 0;
      while (i < group.length) {
        const first = group[i];
        if (first === undefined) break;
        let j = i;
        while ((group[j + 1]?.atMs ?? Infinity) - first.atMs <= windowMs) j++;
        if (j - i + 1 < thresholds.rapidFillsCount) {
          i++;
          continue;
        }
        const run = group.slice(i, j + 1);
        i = j + 1;
        const ids = run.map((p) => p.id);
        const idKey = ids.join(",");
        if (seen.has(idKey)) continue;
        seen.add(idKey);
        const last = run[run.length - 1] ?? first;
        const total = run.reduce((sum, p) => sum + p.gallonsMilli, 0);
        const who = subject(first);
        hits.push({
          rule: "rapid-fills",
          sentence: () =>
            `${String(run.length)} fills on ${who.text} within ${duration(last.atMs - first.atMs)}, ${gallons(total)} in total (from ${localMoment(first)} local time).`,
          atMs: first.atMs,
          localDate: localDate(first),
          transactionIds: ids,
          context: contextOf(
            run,
            who.key === "card" ? { card: first.cardLast4 } : { truck: first.truckId ?? "" },
            `Purchases on ${who.text} on those days`,
          ),
        });
      }
    }
  };
  scan(
    groupBy(fills, (p) => p.cardLast4),
    (p) => ({ key: "card", text: card(p.cardLast4) }),
  );
  scan(
    groupBy(fills, (p) => p.truckId),
    (p) => ({ key: "truck", text: `truck ${p.truckId ?? ""}` }),
  );
  return { hits, notJudged: null };
}

/** Whether a local hour is in the night [start, end): across midnight when start > end; none when they are equal. */
function isNightHour(hour: number, start: number, end: number): boolean {
  if (start === end) return false;
  return start < end ? hour >= start && hour < end : hour >= start || hour < end;
}

/** Fills at night or on a weekend, by the purchase's local time (its own offset), not the viewer's or UTC. */
export function offHours({ purchases, thresholds }: RuleInput): RuleOutcome {
  const { nightStartHour: start, nightEndHour: end, weekends } = thresholds;
  const hits: RawHit[] = [];
  for (const p of purchases) {
    if (!isFill(p)) continue;
    const wall = localWall(p);
    const night = isNightHour(wall.getUTCHours(), start, end);
    const day = wall.getUTCDay();
    const weekend = weekends && (day === 0 || day === 6);
    if (!night && !weekend) continue;
    const why = [
      night ? `at night (${hourName(start)}–${hourName(end)})` : null,
      weekend ? "on a weekend" : null,
    ].filter((x) => x !== null);
    hits.push({
      rule: "off-hours",
      sentence: () =>
        `${gallons(p.gallonsMilli)} of ${p.product} bought ${why.join(" and ")}: ${localMoment(p)} local time, by ${p.driverName} on ${card(p.cardLast4)} at ${p.stationName}.`,
      atMs: p.atMs,
      localDate: localDate(p),
      transactionIds: [p.id],
      context: contextOf([p], { driver: p.driverId }, `Purchases by ${p.driverName} that day`),
    });
  }
  return { hits, notJudged: null };
}
