"use client";

import Link from "next/link";
import { useEffect } from "react";

import { Button, buttonClasses } from "@/components/ui/button";

interface DashboardErrorProps {
  /** Whatever was thrown: an Error from a Server Component (message hidden in production, `digest` kept). */
  error: unknown;
  retry: () => void;
}

export default function DashboardError({ error, retry }: DashboardErrorProps) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : null;

  return (
    <div role="alert" className="max-w-xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-slate-50">Something went wrong</h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        This page ran into an unexpected problem and could not be shown. Nothing was changed in your account. Try again;
        if it keeps happening, reload the page or come back in a few minutes.
      </p>
      {digest === null ? null : (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Reference for support: <code className="font-mono">{digest}</code>
        </p>
      )}
      <div className="mt-6 flex flex-wrap gap-3">
        <Button onClick={retry}>Try again</Button>
        <Link href="/" className={buttonClasses("secondary")}>
          Go to the overview
        </Link>
      </div>
    </div>
  );
}
