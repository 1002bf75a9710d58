import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = {
  title: "Transactions",
};

// Placeholder until the transactions table lands (issue 5, item 4).
export default function TransactionsPage() {
  return <PageHeader title="Transactions">Coming soon</PageHeader>;
}
