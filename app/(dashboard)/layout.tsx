import type { ReactNode } from "react";

import { Providers } from "@/components/providers";
import { RateLimitBanner } from "@/components/shell/rate-limit-banner";
import { SiteHeader } from "@/components/shell/site-header";
import { MAIN_CONTENT_ID, SkipLink } from "@/components/shell/skip-link";

export default function DashboardLayout({ children }: Readonly<{ children: ReactNode }>) {
  return (
    <Providers>
      <div className="flex min-h-dvh flex-col bg-slate-50 dark:bg-slate-950">
        <SkipLink />
        <SiteHeader />
        <RateLimitBanner />
        {/* tabIndex -1: the skip link moves focus here, so the next Tab continues inside the page. */}
        <main
          id={MAIN_CONTENT_ID}
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 outline-none sm:px-6 sm:py-8"
        >
          {children}
        </main>
      </div>
    </Providers>
  );
}
