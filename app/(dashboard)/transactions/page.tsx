import type { Metadata } from "next";
import { Suspense } from "react";

import { TransactionsTable } from "@/components/transactions/transactions-table";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = {
  title: "Transactions",
};

export default function TransactionsPage() {
  return (
    <>
      <PageHeader title="Transactions">
        Every fuel purchase on your cards. Filter, page through, and open one for its detail.
      </PageHeader>
      {/* The table reads its view from the URL (useSearchParams), which only the browser knows for a static page. */}
      <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading transactions…</p>}>
        <TransactionsTable />
      </Suspense>
    </>
  );
}
