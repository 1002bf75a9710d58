import type { NextConfig } from "next";

import { BASELINE_HEADERS } from "./lib/bff/platform/baseline-headers";

// Turbopack is the default bundler in Next 16: a `webpack` key here would fail the build.
const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  typedRoutes: true,
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // exceljs is loaded from node_modules, not bundled: its zip writer (archiver 5 → archiver-utils 2) calls
  // `new Buffer(string)`, which Node reports (DEP0005, once, on the first XLSX export) only for code outside
  // node_modules — as bundled code is. archiver-utils 3 drops it but breaks archiver 5's streams, so no override.
  serverExternalPackages: ["exceljs"],
  // Every response gets these baseline headers, a CSP that allows nothing included; the proxy replaces them with the
  // full set (a CSP with a nonce on pages) on everything it handles, so a response that skips the proxy (static
  // files, prefetches) is still strict.
  headers() {
    return Promise.resolve([{ source: "/:path*", headers: [...BASELINE_HEADERS] }]);
  },
};

export default nextConfig;
