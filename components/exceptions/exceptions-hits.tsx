"use client";

import Link from "next/link";

import { Button } from "@/components/ui/button";
import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import { formatCount } from "@/lib/format/numbers";
import type { ExceptionHit, ExceptionRuleId, ExceptionsReply } from "@/lib/model/insight-exceptions";

import { contextHref, transactionHref } from "./exception-links";

/** The hits of one page (issue 25 item 4): every hit reachable a page at a time, grouped by driver or card on request. */

const groupKeyOf = (reply: ExceptionsReply, hit: ExceptionHit): string =>
  reply.group === "driver" ? hit.driver.id : hit.card;

/** "Hits 51–100 of 699, newest first." */
function describeHitPage(reply: ExceptionsReply): string {
  const { hitsTotal: total, page, pageSize } = reply;
  const order = reply.group === null ? "newest first" : `by ${reply.group}, most hits first, newest first in each`;
  if (total === 0) return "No purchase of this period broke a rule.";
  if (reply.pages === 1) return `${formatCount(total)} ${total === 1 ? "hit" : "hits"}, ${order}.`;
  const first = (page - 1) * pageSize + 1;
  const last = first + reply.hits.length - 1;
  return `Hits ${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}, ${order}.`;
}

/** The page's hits, as runs of one group each when grouped (a group may start on one page and go on to the next). */
function runsOf(reply: ExceptionsReply): { key: string; hits: ExceptionHit[] }[] {
  const runs: { key: string; hits: ExceptionHit[] }[] = [];
  for (const hit of reply.hits) {
    const key = reply.group === null ? "" : groupKeyOf(reply, hit);
    const last = runs[runs.length - 1];
    if (last?.key === key) last.hits.push(hit);
    else runs.push({ key, hits: [hit] });
  }
  return runs;
}

export function HitList({
  reply,
  names,
  onPage,
}: {
  reply: ExceptionsReply;
  names: Map<ExceptionRuleId, string>;
  onPage: (page: number) => void;
}) {
  const groups = new Map(reply.groups.map((g) => [g.key, g]));
  return (
    <>
      <p className="mb-3 text-sm text-slate-700 dark:text-slate-300" role="status">
        {describeHitPage(reply)}
      </p>
      {reply.group === null ? null : <GroupCounts reply={reply} />}
      <div data-testid="exception-hits">
        {runsOf(reply).map((run) => {
          const group = groups.get(run.key);
          return (
            <section key={run.key === "" ? "all" : run.key} aria-label={group?.label}>
              {group === undefined ? null : (
                <h3 className="mt-4 text-sm font-semibold text-slate-900 dark:text-slate-100">
                  {group.label} · {formatCount(group.count)} {group.count === 1 ? "hit" : "hits"}
                </h3>
              )}
              <ol className="divide-y divide-slate-200 dark:divide-slate-800">
                {run.hits.map((hit) => (
                  <HitItem
                    key={`${hit.rule}:${hit.transactionIds.join(",")}`}
                    hit={hit}
                    name={names.get(hit.rule) ?? hit.rule}
                  />
                ))}
              </ol>
            </section>
          );
        })}
      </div>
      {reply.pages > 1 ? <HitPager reply={reply} onPage={onPage} /> : null}
    </>
  );
}

/** Every group of the period with its count (not only the page's), most hits first. */
function GroupCounts({ reply }: { reply: ExceptionsReply }) {
  const who = reply.group === "driver" ? "Driver" : "Card";
  return (
    <div className="mb-4 max-h-64 overflow-auto">
      <table className="w-full text-sm" data-testid="exception-groups">
        <caption className="sr-only">Hits per {reply.group}</caption>
        <thead>
          <tr className="text-left text-slate-600 dark:text-slate-400">
            <th scope="col" className="py-1 pr-4 font-medium">
              {who}
            </th>
            <th scope="col" className="py-1 font-medium">
              Hits
            </th>
          </tr>
        </thead>
        <tbody>
          {reply.groups.map((g) => (
            <tr key={g.key} className="border-t border-slate-200 dark:border-slate-800">
              <th scope="row" className="py-1 pr-4 text-left font-normal">
                {g.label}
              </th>
              <td className="py-1 tabular-nums">{formatCount(g.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HitPager({ reply, onPage }: { reply: ExceptionsReply; onPage: (page: number) => void }) {
  const { page, pages } = reply;
  return (
    <nav aria-label="Pages of hits" className="mt-4 flex flex-wrap items-center gap-3 text-sm">
      <Button
        variant="secondary"
        disabled={page <= 1}
        onClick={() => {
          onPage(page - 1);
        }}
      >
        Previous page
      </Button>
      <span className="text-slate-700 dark:text-slate-300">
        Page {formatCount(page)} of {formatCount(pages)}
      </span>
      <Button
        variant="secondary"
        disabled={page >= pages}
        onClick={() => {
          onPage(page + 1);
        }}
      >
        Next page
      </Button>
    </nav>
  );
}

function HitItem({ hit, name }: { hit: ExceptionHit; name: string }) {
  return (
    <li className="py-3" data-rule={hit.rule}>
      <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">
        {name} · {hit.localDate}
      </p>
      <p className="mt-1 text-sm text-slate-900 dark:text-slate-100">{hit.sentence}</p>
      <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {hit.transactionIds.map((id, i) => (
          <Link key={id} href={transactionHref(id)} className={TEXT_LINK_CLASSES}>
            {hit.transactionIds.length === 1 ? "The transaction" : `Transaction ${String(i + 1)}`}
          </Link>
        ))}
        <Link href={contextHref(hit.context)} className={TEXT_LINK_CLASSES}>
          {hit.context.label}
        </Link>
      </p>
    </li>
  );
}
