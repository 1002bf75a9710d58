import { quoted } from "@/lib/format/quoted";
import { EXCEPTION_GROUPS, isExceptionGroup, isExceptionRuleId } from "@/lib/model/insight-exceptions";

import type { HitsView } from "./use-exceptions";

const pageOf = (raw: string | null) => (raw !== null && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : null);

/** The hits the link asks for (`rule`, `group`, `page`); what the BFF would refuse falls back (see hitsViewProblems). */
export function parseHitsView(params: Pick<URLSearchParams, "get">): HitsView {
  const rule = params.get("rule");
  const group = params.get("group");
  return {
    rule: rule !== null && isExceptionRuleId(rule) ? rule : null,
    group: group !== null && isExceptionGroup(group) ? group : null,
    page: pageOf(params.get("page")) ?? 1,
  };
}

/** What of a link's `rule`, `group` and `page` was not used, in sentences (issue 26: never set aside silently). */
export function hitsViewProblems(params: Pick<URLSearchParams, "get">): string[] {
  const problems: string[] = [];
  const rule = params.get("rule");
  if (rule !== null && !isExceptionRuleId(rule))
    problems.push(`${quoted(rule)} is not one of this page's rules; showing the hits of every rule.`);
  const group = params.get("group");
  if (group !== null && !isExceptionGroup(group))
    problems.push(`${quoted(group)} is not a grouping (${EXCEPTION_GROUPS.join(" or ")}); the hits are not grouped.`);
  const page = params.get("page");
  if (page !== null && pageOf(page) === null)
    problems.push(`${quoted(page)} is not a page number (1, 2, …); showing the first page.`);
  return problems;
}
