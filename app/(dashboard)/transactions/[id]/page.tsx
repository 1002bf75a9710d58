import type { Metadata } from "next";
import { Suspense } from "react";
import { TransactionDetailView } from "@/components/transactions/transaction-detail";

export const metadata: Metadata = {
  title: "Transaction",
};

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading the transaction…</p>}>
      <TransactionDetailView id={id} />
    </Suspense>
  );
}
