import type { CatalogStation, ExceptionThresholds, SubjectHit } from "@/lib/insights/exceptions/types";
import { observedPricesOf } from "@/lib/insights/price-observations";
import type { MirrorStore } from "@/lib/mirror";
import { readCatalog } from "@/lib/mirror/catalog";
import type { LocalDateRange } from "@/lib/model";
import type { ExceptionRuleId } from "@/lib/model/insight-exceptions";

import { type JudgedOutcome, judgePeriod } from "../operations/exceptions-read";

/** A hit as it crosses threads: its sentence written out (a function does not cross). */
export type PlainHit = Omit<SubjectHit, "sentence"> & { sentenceText: string };

export interface JudgeArgs {
  customerId: string;
  query: LocalDateRange;
  historyQuery: LocalDateRange | null;
  /** The catalog as entries (a Map crosses threads, but entries keep the contract plain). */
  catalog: [string, CatalogStation][] | null;
  /** The window around a purchase for the recorded customer prices (read here, from the mirror); null: no catalog. */
  observedWindowMs: number | null;
  thresholds: ExceptionThresholds;
}

/** judgePeriod (exceptions-read) with plain arguments and a plain answer, to run in a worker. */
export async function judgePlain(
  store: MirrorStore,
  args: JudgeArgs,
): Promise<[ExceptionRuleId, { hits: PlainHit[]; notJudged: string | null }][]> {
  const judged = await judgePeriod(store, args.customerId, {
    query: args.query,
    historyQuery: args.historyQuery,
    catalog: args.catalog === null ? null : new Map(args.catalog),
    observed:
      args.observedWindowMs === null
        ? null
        : {
            prices: observedPricesOf(await readCatalog(store, args.customerId)),
            windowMs: args.observedWindowMs,
          },
    thresholds: args.thresholds,
  });
  return [...judged].map(([id, outcome]) => [
    id,
    {
      notJudged: outcome.notJudged,
      hits: outcome.hits.map(({ sentence, ...rest }) => ({ ...rest, sentenceText: sentence() })),
    },
  ]);
}

/** The answer of judgePlain back in judgePeriod's form. */
export function fromPlain(
  plain: [ExceptionRuleId, { hits: PlainHit[]; notJudged: string | null }][],
): Map<ExceptionRuleId, JudgedOutcome> {
  return new Map(
    plain.map(([id, o]) => [
      id,
      {
        notJudged: o.notJudged,
        hits: o.hits.map(({ sentenceText, ...rest }) => ({ ...rest, sentence: () => sentenceText })),
      },
    ]),
  );
}
