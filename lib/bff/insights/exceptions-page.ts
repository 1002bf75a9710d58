import type { SubjectHit } from "@/lib/insights/exceptions/types";
import {
  EXCEPTION_HITS_PER_PAGE,
  type ExceptionGroup,
  type ExceptionHitGroup,
  type ExceptionRuleId,
} from "@/lib/model/insight-exceptions";

import type { JudgedOutcome } from "./exceptions-read";

/**
 * The page of hits GET /api/exceptions shows, picked where the rules ran (the worker): every hit is sorted and
 * grouped, but only the page's hits have their sentences written and cross back to the request's thread — a month of
 * a large fleet can find tens of thousands of hits, and writing and copying them all cost as much as judging them.
 */

/** What the reply shows of the hits: narrowed to one rule or not, grouped by driver or card or not, which page. */
export interface HitsView {
  rule: ExceptionRuleId | null;
  group: ExceptionGroup | null;
  /** From 1; past the last page the page is empty (the operation says why, from `total`). */
  page: number;
}

/** A hit as it crosses threads: its sentence written out (a function does not cross). */
export type PlainHit = Omit<SubjectHit, "sentence"> & { sentenceText: string };

export interface HitsPage {
  hits: PlainHit[];
  total: number;
  groups: ExceptionHitGroup[];
}

const groupKeyOf = (h: SubjectHit, group: ExceptionGroup): string =>
  group === "driver" ? h.subject.driverId : h.subject.cardLast4;

/** Every group with its count, most hits first (then by label), and the hits in that order, newest first within. */
function grouped(
  hits: readonly SubjectHit[],
  group: ExceptionGroup,
): { groups: ExceptionHitGroup[]; hits: SubjectHit[] } {
  const byKey = new Map<string, { group: ExceptionHitGroup; hits: SubjectHit[] }>();
  for (const h of hits) {
    const key = groupKeyOf(h, group);
    let entry = byKey.get(key);
    if (entry === undefined) {
      const label = group === "driver" ? h.subject.driverName : `card •••• ${h.subject.cardLast4}`;
      byKey.set(key, (entry = { group: { key, label, count: 0 }, hits: [] }));
    }
    entry.group.count++;
    entry.hits.push(h);
  }
  const entries = [...byKey.values()].sort(
    (a, b) =>
      b.group.count - a.group.count ||
      a.group.label.localeCompare(b.group.label) ||
      a.group.key.localeCompare(b.group.key),
  );
  return { groups: entries.map((e) => e.group), hits: entries.flatMap((e) => e.hits) };
}

/** The view's page of every rule's hits, newest first (then by rule), with the sentences of that page only. */
export function hitsPageOf(judged: ReadonlyMap<ExceptionRuleId, JudgedOutcome>, view: HitsView): HitsPage {
  const all = [...judged.values()]
    .flatMap((o) => o.hits)
    .filter((h) => view.rule === null || h.rule === view.rule)
    .sort((a, b) => b.atMs - a.atMs || a.rule.localeCompare(b.rule));
  const ordered = view.group === null ? { groups: [], hits: all } : grouped(all, view.group);
  const start = (view.page - 1) * EXCEPTION_HITS_PER_PAGE;
  return {
    hits: ordered.hits
      .slice(start, start + EXCEPTION_HITS_PER_PAGE)
      .map(({ sentence, ...rest }) => ({ ...rest, sentenceText: sentence() })),
    total: all.length,
    groups: ordered.groups,
  };
}
