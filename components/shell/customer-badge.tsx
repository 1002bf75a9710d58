"use client";

import { useSession } from "@/lib/queries/session";

/** Whose data this is: the customer's name and code from the session. */
export function CustomerBadge() {
  const { data, isPending, isError } = useSession();
  if (isPending) {
    return (
      <p className="min-w-0 text-sm leading-tight text-slate-600 dark:text-slate-400" aria-busy="true">
        <span className="sr-only">Loading your account…</span>
        {/* One line of the badge's own height, so the header does not grow when the name arrives. */}
        <span
          aria-hidden="true"
          className="inline-block h-3.5 w-32 animate-pulse rounded bg-slate-200 align-middle dark:bg-slate-700"
        />
      </p>
    );
  }
  // The header stays usable without it; the page's own cards say what failed.
  if (isError) return null;
  const { name, code } = data.customer;
  // A key without the account scope: the upstream would not say whose it is.
  if (name === null && code === null) return null;
  return (
    // One line on a phone (cut with an ellipsis; the whole text stays in the accessibility tree), as the placeholder:
    // a name and code wrapping to a second line pushed the page down as it loaded (CLS).
    <p className="min-w-0 truncate text-sm leading-tight text-slate-700 sm:overflow-visible sm:text-right sm:whitespace-normal dark:text-slate-300">
      <span className="sr-only">Signed in as </span>
      <span className="font-medium text-slate-900 sm:block sm:truncate dark:text-slate-100">{name ?? "Customer"}</span>
      {code === null ? null : (
        <span className="text-slate-600 sm:block sm:truncate sm:text-xs dark:text-slate-400">
          <span aria-hidden="true" className="sm:hidden">
            {" "}
            ·{" "}
          </span>
          <span className="sr-only">, customer </span>
          Code {code}
        </span>
      )}
    </p>
  );
}
