import { SavingsPanel } from "@/components/savings/savings-panel";

import { AccountCard } from "./account-card";
import { DailyChartCard } from "./daily-chart-card";
import { LatestTransactionsCard } from "./latest-transactions-card";
import { TopListCard } from "./top-list-card";
import { TotalsCard } from "./totals-card";

/** The overview's cards; each loads and fails on its own, so one failing part never blanks the page. */
export function Overview() {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <AccountCard />
      <TotalsCard className="lg:col-span-2" />
      <DailyChartCard className="lg:col-span-3" />
      <div className="grid min-w-0 gap-6 md:grid-cols-2 lg:col-span-3">
        <TopListCard list="topDrivers" />
        <TopListCard list="topStations" />
      </div>
      <SavingsPanel scope={{}} className="lg:col-span-3" />
      <LatestTransactionsCard className="lg:col-span-3" />
    </div>
  );
}
