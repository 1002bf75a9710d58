import "./globals.css";

import type { Metadata, Viewport } from "next";
import localFont from "next/font/local";
import { connection } from "next/server";
import type { ReactNode } from "react";

import { ThemeSync } from "@/components/ui/theme-sync";

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

// Inter (variable weight, Latin subset), shipped in the app from the @fontsource-variable/inter package: no font CDN is
// contacted at build or run time. next/font serves it from /_next/static/media, preloads it and sizes the fallback to
// match its metrics, so swapping it in does not shift the layout.
const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  weight: "100 900",
  style: "normal",
  display: "swap",
  variable: "--font-inter",
  fallback: ["system-ui", "Segoe UI", "Roboto", "Helvetica Neue", "Arial", "sans-serif"],
});

export const viewport: Viewport = {
  themeColor: "#d95306",
};

// Every page renders per request: the proxy's CSP carries a fresh nonce, and Next can only put that nonce on its
// scripts when it renders the page for that request (a prerendered page would have none and be blocked).
export default async function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  await connection();
  return (
    <html lang="en" className={inter.variable}>
      <body className="min-h-dvh bg-slate-50 font-sans text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <ThemeSync />
        {children}
      </body>
    </html>
  );
}
