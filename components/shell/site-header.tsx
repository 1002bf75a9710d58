import Link from "next/link";

import { ThemeToggle } from "@/components/ui/theme-toggle";

import { CustomerBadge } from "./customer-badge";
import { MainNav } from "./main-nav";
import { SignOutButton } from "./sign-out-button";
import { SyncStatusLine } from "./sync-status-line";

/**
 * The product, whose data it is and the actions on top; the navigation tabs below at every width, so the tab order
 * equals the visual order (the tabs fit on one line down to 360 px, and scroll sideways if ever they do not).
 */
export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 pt-3 sm:flex-nowrap sm:gap-x-4">
          <Link
            href="/"
            className="shrink-0 rounded text-base font-bold tracking-tight text-slate-900 dark:text-slate-50"
          >
            <span
              aria-hidden="true"
              className="mr-1.5 inline-block size-2.5 rounded-full bg-brand-600 align-middle dark:bg-brand-400"
            />
            Fleet Fuel<span className="hidden sm:inline"> Dashboard</span>
          </Link>
          {/* On phones the customer gets a row of its own under the buttons (it is text, so the tab order is the same). */}
          <div className="order-1 flex min-w-0 basis-full sm:order-none sm:flex-1 sm:basis-auto sm:justify-end">
            <CustomerBadge />
          </div>
          <div className="ml-auto flex shrink-0 items-center gap-3 sm:ml-0">
            <ThemeToggle />
            <SignOutButton />
          </div>
        </div>
        {/* The sync line sits at the right of the tabs, or on a line of its own under them on a phone: that line is
            always there below sm, empty until the sync's status arrives, so the page does not move down when it does
            (a driver's page moved 16 px on a phone: CLS, e2e/drilldowns-layout.spec.ts). */}
        <div className="mt-1 flex flex-wrap items-end justify-between gap-x-4">
          <MainNav />
          <div className="ml-auto flex min-h-5 min-w-0 basis-full justify-end pb-1 sm:basis-auto">
            <SyncStatusLine />
          </div>
        </div>
      </div>
    </header>
  );
}
