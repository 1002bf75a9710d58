import type { Metadata } from "next";
import Link from "next/link";

import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = {
  title: "Transaction not found",
};

// Rendered with HTTP 404 when the page's lookup finds no such transaction (see page.tsx).
export default function TransactionNotFound() {
  return (
    <div>
      <PageHeader title="Transaction not found">
        No transaction with this reference exists on your account. It may belong to another customer, or the link may be
        mistyped.
      </PageHeader>
      <Link
        href="/transactions"
        className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300 dark:hover:text-brand-200"
      >
        <span aria-hidden="true">← </span>Back to transactions
      </Link>
    </div>
  );
}
