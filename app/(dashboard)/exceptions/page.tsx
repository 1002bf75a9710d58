import type { Metadata } from "next";
import { Suspense } from "react";

import { ExceptionsView } from "@/components/exceptions/exceptions-view";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = {
  title: "Exceptions",
};

export default function ExceptionsPage() {
  return (
    <>
      <PageHeader title="Exceptions">
        Purchases worth a second look, each with the reason in a sentence and the transactions behind it. Days and hours
        are each purchase&apos;s own local time, as on its receipt.
      </PageHeader>
      {/* The period and the rule live in the URL (useSearchParams), which only the browser knows for a static page. */}
      <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading exceptions…</p>}>
        <ExceptionsView />
      </Suspense>
    </>
  );
}
