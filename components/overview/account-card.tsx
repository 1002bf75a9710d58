"use client";

import { useAccount } from "@/lib/queries/account";
import { Card } from "@/components/ui/card";
import { CardError } from "@/components/ui/query-states";
import { Skeleton } from "@/components/ui/skeleton";
import { AccountStatusBadge } from "@/components/ui/status-badge";

export function AccountCard() {
  const { data: account, isPending, isError, error, refetch, isFetching } = useAccount();

  return (
    <Card title="Account">
      {isPending ? (
        <div aria-busy="true">
          <p className="sr-only">Loading the account…</p>
          <div className="space-y-3">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-6 w-20 rounded-full" />
          </div>
        </div>
      ) : isError ? (
        <CardError error={error} subject="the account" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
          <dt className="text-slate-600 dark:text-slate-400">Name</dt>
          <dd className="font-medium text-slate-900 dark:text-slate-50">{account.name}</dd>
          <dt className="text-slate-600 dark:text-slate-400">Code</dt>
          <dd className="font-mono text-slate-900 dark:text-slate-50">{account.code ?? "Not provided"}</dd>
          <dt className="self-center text-slate-600 dark:text-slate-400">Status</dt>
          <dd>
            <AccountStatusBadge isActive={account.active} />
          </dd>
        </dl>
      )}
    </Card>
  );
}
