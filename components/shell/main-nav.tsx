"use client";

import type { Route } from "next";
import Link from "next/link";
import { usePathname } from "next/navigation";

interface NavItem {
  href: Route;
  label: string;
}

const NAV_ITEMS: readonly NavItem[] = [
  { href: "/", label: "Overview" },
  { href: "/transactions", label: "Transactions" },
  { href: "/stations", label: "Stations" },
  { href: "/reports/jurisdictions", label: "Reports" },
  { href: "/drivers", label: "Drivers" },
  { href: "/trucks", label: "Trucks" },
  { href: "/cards", label: "Cards" },
  { href: "/exceptions", label: "Exceptions" },
];

/**
 * `aria-current="page"` on the page itself; inside a section (a transaction's detail) the section's link is marked
 * `aria-current="true"`, which reads as "current" without claiming to be this exact page.
 */
function currentState(pathname: string, href: string): "page" | "true" | undefined {
  if (pathname === href) return "page";
  if (href !== "/" && pathname.startsWith(`${href}/`)) return "true";
  return undefined;
}

/**
 * Every section one tap away at every width: on a phone the eight links wrap onto a second (or third) row (a strip that
 * scrolled sideways hid Drivers, Trucks, Cards and Exceptions off-screen with no hint); a wide window has one row.
 */
export function MainNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="-mb-px w-full sm:w-auto">
      <ul className="flex flex-wrap sm:gap-x-2">
        {NAV_ITEMS.map((item) => {
          const current = currentState(pathname, item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current}
                className={`inline-block border-b-2 px-2 py-2.5 text-sm font-medium whitespace-nowrap sm:px-3 ${
                  current === undefined
                    ? "border-transparent text-slate-700 hover:border-slate-400 hover:text-slate-900 dark:text-slate-300 dark:hover:border-slate-500 dark:hover:text-slate-50"
                    : "border-brand-700 font-semibold text-slate-900 dark:border-brand-400 dark:text-slate-50"
                }`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
