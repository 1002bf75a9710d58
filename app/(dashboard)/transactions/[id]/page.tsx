import type { Metadata } from "next";
import { Suspense } from "react";

import { TransactionDetailView } from "@/components/transactions/transaction-detail";
import { notFoundUnlessFound } from "@/lib/bff/http/page-lookup";
import { getTransactionDetail } from "@/lib/bff/transactions/transaction-detail";

export const metadata: Metadata = {
  title: "Transaction",
};

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // An unknown id is a real HTTP 404 (for bookmarks, crawlers and link checkers), not a 200 with a not-found text.
  // The transaction found is handed to the view, so the server's HTML carries its heading and cards (issue 26: on a
  // phone the heading, the page's largest paint, waited for the scripts and a second request). A lookup still
  // running when the page stops waiting (page-lookup) leaves the view to load it as before.
  const found = await notFoundUnlessFound((session) => getTransactionDetail(session, id));
  return (
    <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading the transaction…</p>}>
      <TransactionDetailView id={id} initial={found} />
    </Suspense>
  );
}
