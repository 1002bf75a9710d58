// No zod here: the exceptions page imports this module directly (not through lib/model's index, whose schemas would
// bring zod into the page's JavaScript).

import type { InsightCoverage, InsightPeriods } from "./insights";

/** The exception rules (issue 16 item 3), in the order the page lists them; `GET /api/exceptions?rule=` takes these. */
export const EXCEPTION_RULE_IDS = [
  "rapid-fills",
  "large-fill",
  "off-hours",
  "above-catalog-price",
  "unusual-product",
  "def-without-diesel",
  "impossible-travel",
  "failed-then-other-card",
] as const;
export type ExceptionRuleId = (typeof EXCEPTION_RULE_IDS)[number];

export const isExceptionRuleId = (value: string): value is ExceptionRuleId =>
  (EXCEPTION_RULE_IDS as readonly string[]).includes(value);

/** How the hits may be grouped (`GET /api/exceptions?group=`): under each hit's first purchase's driver or card. */
export const EXCEPTION_GROUPS = ["driver", "card"] as const;
export type ExceptionGroup = (typeof EXCEPTION_GROUPS)[number];

export const isExceptionGroup = (value: string): value is ExceptionGroup =>
  (EXCEPTION_GROUPS as readonly string[]).includes(value);

/** The hits a reply carries at most (one page); `page=` walks through every hit. */
export const EXCEPTION_HITS_PER_PAGE = 50;

/**
 * The transactions list's filters that show the purchases around a hit (`/transactions?…&dates=local`): the subject's
 * purchases on the hit's local days. A superset of the hit's own rows when the subject bought more those days, so
 * the page links each of the hit's transactions too (`transactionIds`): no list filter names a set of ids.
 */
export interface ExceptionContextFilter {
  /** Local dates (YYYY-MM-DD), inclusive. */
  from: string;
  to: string;
  driver: string | null;
  card: string | null;
  truck: string | null;
  /** What the filter lists, for the link's text ("Purchases on card •••• 4480 on those days"). */
  label: string;
}

export interface ExceptionHit {
  rule: ExceptionRuleId;
  /** The hit explained with its numbers ("3 fills on card •••• 4480 within 2 h 10 min, 412.0 gal in total"). */
  sentence: string;
  /** The first purchase's instant (ISO, UTC) and its local date: the list is newest first. */
  at: string;
  localDate: string;
  /** The transactions behind the hit, oldest first (each has its detail page `/transactions/[id]`). */
  transactionIds: string[];
  context: ExceptionContextFilter;
  /** The driver and card of the hit's first purchase: what `group=` groups it under. */
  driver: { id: string; name: string };
  card: string;
}

/** One group of hits (`group=`): its key (driver id or card last 4), how it reads, and how many hits it holds. */
export interface ExceptionHitGroup {
  key: string;
  label: string;
  count: number;
}

export interface ExceptionRuleSummary {
  id: ExceptionRuleId;
  name: string;
  /** What the rule flags, with the thresholds in force, in a sentence. */
  description: string;
  /** `not_run`: the rule could not be judged (e.g. no station catalog without the locations scope); `reason` says why. */
  status: "run" | "not_run";
  reason: string | null;
  count: number;
  /** The previous period's count; null when the rule did not run or the mirror does not hold both periods whole. */
  previousCount: number | null;
  /** Purchases the rule could not judge (e.g. a station missing from the catalog), with why; null when none. */
  notJudged: string | null;
}

/** One operator-settable threshold: the environment variable, what it means, its value now and its default. */
export interface ExceptionThreshold {
  env: string;
  label: string;
  value: string;
  defaultValue: string;
}

/** `GET /api/exceptions?quarter|from&to&rule`. */
export interface ExceptionsReply {
  periods: InsightPeriods;
  coverage: InsightCoverage;
  previousCoverage: InsightCoverage;
  /** The rule asked for (`rule=`), or null for all. */
  rule: ExceptionRuleId | null;
  rules: ExceptionRuleSummary[];
  /**
   * One page of the hits (at most `pageSize`): newest first, or, when grouped, group by group (the `groups` order) and
   * newest first within a group. `hitsTotal` counts them all (of the rule asked for, or of all rules).
   */
  hits: ExceptionHit[];
  hitsTotal: number;
  /** The page shown (from 1), the hits a page holds and the number of pages (at least 1). */
  page: number;
  pageSize: number;
  pages: number;
  /** The grouping asked for, or null; `groups` lists every group with its count, most hits first (empty when null). */
  group: ExceptionGroup | null;
  groups: ExceptionHitGroup[];
  thresholds: ExceptionThreshold[];
  /** What the price rule compares with: the station's price observed around the purchase, never today's. */
  catalogNote: string;
}
