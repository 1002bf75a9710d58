import Link from "next/link";

import { buttonClasses } from "@/components/ui/button";

/** What a 404 says, wherever it is shown: on its own (app/not-found.tsx) or inside the dashboard's shell. */
export function NotFoundMessage() {
  return (
    <>
      <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase dark:text-brand-300">Error 404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 dark:text-slate-50">Page not found</h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        There is no page at this address. It may have been mistyped, or the link you followed is out of date.
      </p>
      <div className="mt-8">
        <Link href="/" className={buttonClasses("primary")}>
          Go to the overview
        </Link>
      </div>
    </>
  );
}
