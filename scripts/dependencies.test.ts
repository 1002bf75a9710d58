import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

// `dependencies` are what the app, the sandbox, the bench and the scripts import; a package only tests use is a
// devDependency (issue 27: d3-scale-chromatic and us-atlas were listed as dependencies for one unit test each). knip
// would say so (`npx knip@6 --production`), but it runs from npx, not in the suite (CONTRIBUTING.md): this is its
// dependency check in small, on the imports TypeScript reads.

const ROOT = path.resolve(import.meta.dirname, "..");
/** Folders of tests and generated or installed files: what is imported there does not make a dependency. */
const SKIPPED = new Set([".git", ".next", ".data", "node_modules", "coverage", "test-results", "playwright-report"]);
const TEST_FOLDERS = new Set(["e2e", "test"]);
/** Dependencies no module imports, and why they are dependencies all the same. */
const NOT_IMPORTED: Record<string, string> = {
  // app/layout.tsx loads its font file by path (next/font/local's `src`), not as a module.
  "@fontsource-variable/inter": "font file",
  // Next.js's own peer dependency: its server and client runtimes import it, our code does not.
  "react-dom": "Next's peer",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name) || TEST_FOLDERS.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|mjs|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The package a bare specifier names ("@turf/helpers", "leaflet"), or null for paths, aliases and node: modules. */
function packageOf(specifier: string): string | null {
  if (/^(\.|@\/|node:)/.test(specifier)) return null;
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

function importedPackages(): Set<string> {
  const packages = new Set<string>();
  for (const file of sourceFiles(ROOT)) {
    const text = readFileSync(file, "utf8");
    const specifiers = file.endsWith(".css")
      ? [...text.matchAll(/@import\s+"([^"]+)"/g)].map((m) => m[1] ?? "")
      : ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
    for (const specifier of specifiers) {
      const name = packageOf(specifier);
      if (name !== null) packages.add(name);
    }
  }
  return packages;
}

describe("package.json", () => {
  it("lists as dependencies only packages that code outside the tests imports", () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const imported = importedPackages();
    const onlyTests = Object.keys(manifest.dependencies).filter(
      (name) => !imported.has(name) && !(name in NOT_IMPORTED),
    );
    expect(onlyTests, "move these to devDependencies (npm install -D)").toEqual([]);
  });
});
