/**
 * JavaScript per page from the last `next build` (issue 26: ≤ 200 kB per page, the map's lazy chunk reported apart),
 * without a browser: what a page loads before it is interactive is the build's root chunks (`rootMainFiles` of
 * `.next/build-manifest.json`) plus the chunks of the page's entries (`entryJSFiles` of its client reference manifest);
 * what it loads later is the chunks of its `next/dynamic` imports (its `react-loadable-manifest.json`) that are not
 * already in the first set. Sizes are gzip (as `next start` sends them), so they match Lighthouse's transfer sizes
 * within the headers' few hundred bytes. The polyfill chunk is left out: modern browsers skip it (`nomodule`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";

export interface LazyChunk {
  /** The `next/dynamic` import, as the build names it (its module id). */
  id: string;
  files: string[];
  gzipBytes: number;
}

export interface PageWeight {
  /** The page's route without route groups: `/stations`, `/drivers/[id]`, `/` . */
  route: string;
  /** Scripts loaded with the page (paths under `.next/`). */
  initialFiles: string[];
  initialGzipBytes: number;
  /** Scripts of the page's `next/dynamic` imports that the page does not already load. */
  lazy: LazyChunk[];
}

interface BuildManifest {
  rootMainFiles?: string[];
}

interface ClientReferenceManifest {
  entryJSFiles?: Record<string, string[]>;
}

type LoadableManifest = Record<string, { id: string | number; files?: string[] }>;

const MANIFEST = "page_client-reference-manifest.js";

function listManifests(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listManifests(path);
    return entry.name === MANIFEST ? [path] : [];
  });
}

/** `(dashboard)/drivers/[id]` → `/drivers/[id]`; Next's own pages (`_not-found`, `_global-error`) → null. */
function routeOf(folder: string): string | null {
  const segments = folder.split(sep).filter((s) => s !== "" && !(s.startsWith("(") && s.endsWith(")")));
  if (segments.some((s) => s.startsWith("_"))) return null;
  return `/${segments.join("/")}`;
}

/** The manifest is a script that assigns to `globalThis.__RSC_MANIFEST[page]`: run it in an empty context. */
function readClientReferenceManifest(path: string): ClientReferenceManifest {
  const context: { __RSC_MANIFEST?: Record<string, ClientReferenceManifest> } = {};
  runInNewContext(readFileSync(path, "utf8"), context, { timeout: 1_000 });
  const [manifest] = Object.values(context.__RSC_MANIFEST ?? {});
  if (manifest === undefined) throw new Error(`${path} defines no client reference manifest`);
  return manifest;
}

/** Every page of the build in `nextDir` (default `.next`) with its JavaScript, by route. */
export function readPageWeights(nextDir = ".next"): PageWeight[] {
  const build = JSON.parse(readFileSync(join(nextDir, "build-manifest.json"), "utf8")) as BuildManifest;
  const root = build.rootMainFiles ?? [];
  const sizes = new Map<string, number>();
  const gzipBytes = (files: Iterable<string>) => {
    let total = 0;
    for (const file of files) {
      let size = sizes.get(file);
      if (size === undefined) {
        size = gzipSync(readFileSync(join(nextDir, file))).length;
        sizes.set(file, size);
      }
      total += size;
    }
    return total;
  };
  const appDir = join(nextDir, "server", "app");
  const pages: PageWeight[] = [];
  for (const manifestPath of listManifests(appDir)) {
    const folder = relative(appDir, manifestPath).slice(0, -MANIFEST.length);
    const route = routeOf(folder);
    if (route === null) continue;
    const entries = readClientReferenceManifest(manifestPath).entryJSFiles ?? {};
    const initial = new Set([...root, ...Object.values(entries).flat()].filter((f) => f.endsWith(".js")));
    const loadablePath = join(appDir, folder, "page", "react-loadable-manifest.json");
    const loadable = existsSync(loadablePath)
      ? (JSON.parse(readFileSync(loadablePath, "utf8")) as LoadableManifest)
      : {};
    const lazy = Object.values(loadable)
      .map((chunk) => {
        const files = (chunk.files ?? []).filter((f) => f.endsWith(".js") && !initial.has(f));
        return { id: String(chunk.id), files, gzipBytes: gzipBytes(files) };
      })
      .filter((chunk) => chunk.files.length > 0);
    pages.push({ route, initialFiles: [...initial].sort(), initialGzipBytes: gzipBytes(initial), lazy });
  }
  return pages.sort((a, b) => a.route.localeCompare(b.route));
}

/** What identifies Leaflet in a chunk: its CSS class prefix, in its JS as in its CSS. */
const LEAFLET_MARK = "leaflet-container";

/** The map's lazy chunk(s): /stations' `next/dynamic` chunks that carry Leaflet (paths under `.next/`). */
export function mapChunkFiles(nextDir = ".next", pages: readonly PageWeight[] = readPageWeights(nextDir)): string[] {
  const stations = pages.find((p) => p.route === "/stations");
  return (stations?.lazy ?? [])
    .flatMap((chunk) => chunk.files)
    .filter((file) => readFileSync(join(nextDir, file), "utf8").includes(LEAFLET_MARK));
}
