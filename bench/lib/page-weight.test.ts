/**
 * Issue 26: JavaScript per page ≤ 200 kB (gzip) before the page is interactive, on every page; the map's Leaflet chunk
 * is lazy and loaded by /stations only. Read from the production build's manifests (./page-weight), the build the
 * HTTP tests use (built here only when missing or stale), so no browser is needed; the bench's pages part reports the
 * same per page with Lighthouse's transfer sizes.
 */
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { ensureBuilt } from "@/test/app-process";

import { mapChunkFiles, type PageWeight, readPageWeights } from "./page-weight";

const JS_BUDGET_BYTES = 200_000;

/** The routes of `app/**\/page.tsx`, route groups left out: what the build must have measured. */
function sourceRoutes(dir = "app"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceRoutes(path);
    if (entry.name !== "page.tsx") return [];
    const segments = relative("app", dir)
      .split(sep)
      .filter((s) => s !== "" && !(s.startsWith("(") && s.endsWith(")")));
    return [`/${segments.join("/")}`];
  });
}

describe("JavaScript per page in the production build", () => {
  let pages: PageWeight[];
  beforeAll(async () => {
    await ensureBuilt();
    pages = readPageWeights();
  }, 900_000);

  it("measures every page of app/", () => {
    expect(pages.map((p) => p.route).sort()).toEqual(sourceRoutes().sort());
  });

  it("loads at most 200 kB of JavaScript (gzip) with each page, lazy chunks apart", () => {
    const over = pages
      .filter((p) => p.initialGzipBytes > JS_BUDGET_BYTES)
      .map((p) => `${p.route}: ${String(Math.round(p.initialGzipBytes / 1000))} kB`);
    expect(over).toEqual([]);
  });

  it("keeps the map's chunk lazy: no page loads Leaflet with it", () => {
    const mapFiles = new Set(mapChunkFiles(".next", pages));
    expect(mapFiles.size).toBeGreaterThan(0);
    for (const page of pages)
      expect(
        page.initialFiles.filter((f) => mapFiles.has(f)),
        page.route,
      ).toEqual([]);
  });
});
