import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { ThemeSync } from "@/components/theme/theme-sync";
import "./globals.css";

export const metadata: Metadata = {
  title: {
    default: "Fleet Fuel Dashboard",
    template: "%s · Fleet Fuel Dashboard",
  },
  description: "Fuel transactions, spend and stations for your fleet, from the Fleet Fuel Customer API.",
  icons: {
    icon: [{ url: "/favicon.svg", type: "image/svg+xml" }],
  },
};

export const viewport: Viewport = {
  themeColor: "#d95306",
};

// Every page renders per request: the proxy's CSP carries a fresh nonce, and Next can only put that nonce on its
// scripts when it renders the page for that request (a prerendered page would have none and be blocked).
export default async function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  await connection();
  return (
    <html lang="en">
      <body className="min-h-dvh bg-slate-50 font-sans text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <ThemeSync />
        {children}
      </body>
    </html>
  );
}
