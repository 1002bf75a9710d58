import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Issue 27: the stations page's modules import each other without a cycle (four map files were in two: map-inner ↔
 * selected-popup, map-inner → map-view → station-layer → map-inner). Type-only imports count: a cycle of types still
 * ties the files together. TypeScript's own pre-processor lists each file's imports (static, dynamic, `import type`);
 * the feature folders' import rule itself is ESLint's (scripts/lint/boundaries.mjs).
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FOLDER = path.join(ROOT, "components/stations");
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function resolveImport(specifier: string, from: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base?.startsWith(FOLDER)) return null;
  return (
    EXTENSIONS.map((ext) => base + ext).find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate)) ?? null
  );
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(FOLDER)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles.map((f) => resolveImport(f.fileName, file)).filter((t): t is string => t !== null);
    graph.set(file, targets);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as its files from the first one met back to it. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const done = new Set<string>();
  const cycles: string[][] = [];
  const walk = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at !== -1) {
      cycles.push([...trail.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...trail, file]);
    done.add(file);
  };
  for (const file of graph.keys()) walk(file, []);
  return cycles;
}

describe("components/stations' import graph", () => {
  it("sees the folder's imports (the walk is not vacuous)", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    const mapInner = [...graph].find(([file]) => file.endsWith("map-inner.tsx"));
    expect(mapInner?.[1].length).toBeGreaterThan(5);
  });

  it("has no import cycle", () => {
    const cycles = cyclesOf(importGraph()).map((cycle) => cycle.map((f) => path.relative(FOLDER, f)).join(" → "));
    expect(cycles).toEqual([]);
  });
});
