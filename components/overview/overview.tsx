import { AccountCard } from "./account-card";
import { TotalsCard } from "./totals-card";

/** The overview's cards; each loads and fails on its own, so one failing part never blanks the page. */
export function Overview() {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <AccountCard />
      <TotalsCard className="lg:col-span-2" />
    </div>
  );
}
