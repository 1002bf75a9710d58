import type { Metadata } from "next";

import { LoginForm } from "@/components/auth/login-form";
import { safeNextPath } from "@/components/auth/safe-next-path";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { getConfig } from "@/lib/bff/platform/config";

export const metadata: Metadata = {
  title: "Sign in",
};

/** Why the user landed here, from `?reason=`; anything else shows nothing. */
const REASON_MESSAGES: Readonly<Record<string, string>> = {
  expired: "Your session ended. Please sign in again.",
  "signed-out": "You signed out.",
};

interface LoginPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function LoginPage({ searchParams }: LoginPageProps) {
  const params = await searchParams;
  const next = safeNextPath(params.next);
  const reason = typeof params.reason === "string" ? REASON_MESSAGES[params.reason] : undefined;

  // The sandbox's demo key (DEMO_KEY_ID/SECRET, local upstream only): only its id reaches the page.
  const demoKeyId = getConfig().demoKey?.keyId;
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 dark:bg-slate-950">
      <div className="flex justify-end p-4">
        <ThemeToggle />
      </div>
      <main className="mx-auto w-full max-w-md flex-1 px-4 pb-16 sm:pt-8">
        <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase dark:text-brand-300">
          Fleet Fuel Dashboard
        </p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 dark:text-slate-50">Sign in</h1>
        <p className="mt-3 text-slate-700 dark:text-slate-300">
          Use the API key pair (key ID and secret) that Fleet Fuel issued to your company.
        </p>

        {reason === undefined ? null : (
          <p
            role="status"
            className="mt-6 rounded-md border border-sky-300 bg-sky-50 p-3 text-sm text-sky-900 dark:border-sky-800 dark:bg-sky-950/60 dark:text-sky-100"
          >
            {reason}
          </p>
        )}

        <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <LoginForm next={next} demoKeyId={demoKeyId} />
        </div>

        <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
          The secret goes only to this dashboard&apos;s server, which keeps it sealed in an encrypted session cookie
          that scripts in the page cannot read.
        </p>
      </main>
    </div>
  );
}
