import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// What a production build is made from: a change to any of these after the last build means build again.
const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "instrumentation-node.ts",
  "next.config.ts",
  "tailwind.config.ts",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Whether `.next` holds a production build of the current sources. */
export function buildState(root: string): "missing" | "stale" | "current" {
  const buildId = path.join(root, ".next/BUILD_ID");
  if (!existsSync(buildId)) return "missing";
  const builtAt = statSync(buildId).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(path.join(root, input)) > builtAt) ? "stale" : "current";
}
