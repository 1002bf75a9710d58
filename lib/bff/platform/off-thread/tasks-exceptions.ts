import type { CatalogStation, ExceptionThresholds } from "@/lib/insights/exceptions/types";
import { observedPricesOf } from "@/lib/insights/price-observations";
import { type MirrorStore, readCatalog } from "@/lib/mirror";
import type { LocalDateRange } from "@/lib/model";
import type { ExceptionRuleId } from "@/lib/model/insight-exceptions";

import { type HitsPage, hitsPageOf, type HitsView } from "../../insights/exceptions-page";
import { judgePeriod } from "../../insights/exceptions-read";

export interface JudgeArgs {
  customerId: string;
  query: LocalDateRange;
  historyQuery: LocalDateRange | null;
  /** The catalog as entries (a Map crosses threads, but entries keep the contract plain). */
  catalog: [string, CatalogStation][] | null;
  /** The window around a purchase for the recorded customer prices (read here, from the mirror); null: no catalog. */
  observedWindowMs: number | null;
  thresholds: ExceptionThresholds;
  /** Which hits the reply shows (null: only the counts, as of the previous period). */
  view: HitsView | null;
}

/** Each rule's count and what it could not judge, and the page of hits asked for (null when none was). */
export interface JudgedPlain {
  rules: [ExceptionRuleId, { count: number; notJudged: string | null }][];
  page: HitsPage | null;
}

/** judgePeriod (exceptions-read) with plain arguments and a plain, small answer, to run in a worker. */
export async function judgePlain(store: MirrorStore, args: JudgeArgs): Promise<JudgedPlain> {
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
  return {
    rules: [...judged].map(([id, o]) => [id, { count: o.hits.length, notJudged: o.notJudged }]),
    page: args.view === null ? null : hitsPageOf(judged, args.view),
  };
}
