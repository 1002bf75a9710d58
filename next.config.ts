import type { NextConfig } from "next";

// Turbopack is the default bundler in Next 16: a `webpack` key here would fail the build.
const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  typedRoutes: true,
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // The proxy sets the full set (CSP with a nonce) on pages and API routes; static files and prefetches skip the
  // proxy, so these baseline headers cover every response.
  headers() {
    return Promise.resolve([
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
        ],
      },
    ]);
  },
};

export default nextConfig;
