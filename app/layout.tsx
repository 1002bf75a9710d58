import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
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

export default function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  return (
    <html lang="en">
      <body className="min-h-dvh bg-white font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
