import type { NextConfig } from "next";

// Turbopack is the default bundler in Next 16: a `webpack` key here would fail the build.
const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  typedRoutes: true,
};

export default nextConfig;
