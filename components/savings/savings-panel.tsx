"use client";

import dynamic from "next/dynamic";

import { Card } from "@/components/ui/card";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { formatCount } from "@/lib/format/numbers";
import { isMirrorNeeded, type SavingsScope, useSavings } from "@/lib/queries/savings";

const SAVINGS_SKELETON = <CardSkeleton label="Comparing your fills with the station catalog…" rows={4} />;

// The figures are drawn only once the BFF's reply has come (never on the server): their code loads then, in the
// skeleton's place (issue 26: JavaScript per page).
const SavingsFiguresView = dynamic(() => import("./savings-figures").then((m) => m.SavingsFiguresView), {
  loading: () => SAVINGS_SKELETON,
});

const NO_RANGE: Readonly<Record<string, string>> = {};
const MIRROR_OFF =
  "Savings are computed from the local copy of your transactions, which this server does not keep (its mirror is off).";

/**
 * "Could have saved $X on N fills": the fleet's (or one driver's or station's) completed diesel fills against the
 * cheapest price observed around each fill at the other stations within the radius and the state's median
 * (GET /api/savings), over how many of the period's fills, why the rest were not compared, whether the customer price
 * was applied, the previous period, and the largest missed savings with the cheaper station (on the map's station
 * page). `range` is the insight range picker's query; none: the last 30 days.
 */
export function SavingsPanel({
  scope,
  range = NO_RANGE,
  className,
}: {
  scope: SavingsScope;
  range?: Readonly<Record<string, string>>;
  className?: string;
}) {
  const { data, isPending, isError, error, refetch, isFetching, isMirrorOff } = useSavings(scope, range);
  return (
    <Card title="Savings against cheaper stations nearby" className={className}>
      {isMirrorOff ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {MIRROR_OFF}
        </p>
      ) : isPending ? (
        SAVINGS_SKELETON
      ) : isMirrorNeeded(error) ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {error.message}
        </p>
      ) : isError ? (
        <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : data.catalog.state === "loading" ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          Loading the station catalog to compare your fills with: the figures appear in a moment.
        </p>
      ) : (
        <>
          {data.comparing === null ? null : (
            <p
              role="status"
              className="mb-4 text-sm text-slate-700 dark:text-slate-300"
              data-testid="savings-comparing"
            >
              Still comparing {formatCount(data.comparing.pending)} of {formatCount(data.comparing.total)} fills; the
              figure will change.
            </p>
          )}
          <SavingsFiguresView reply={data} scope={scope} />
        </>
      )}
    </Card>
  );
}
