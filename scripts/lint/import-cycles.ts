import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import ts from "typescript";

/**
 * Import cycles among the TypeScript files of some folders, type-only imports included (what `madge --circular`
 * reports): each cycle is a strongly connected component of the import graph, as repo-relative paths.
 *
 * Our own ~60 lines over the TypeScript compiler the project already pins, rather than a library: madge 8 declares a
 * peer dependency on TypeScript 5 (npm refuses it beside our 6) and brings detectives for Vue, Sass, Less and Stylus;
 * import-x's `no-cycle` resolves through a resolver with per-platform native binaries (the trouble noted in
 * ./boundaries.mjs) and needs a typed, project-wide pass. Imports resolve as tsc resolves them (tsconfig's `@/` paths).
 */

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function compilerOptionsOf(root: string): ts.CompilerOptions {
  const configPath = path.join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
}

/** The files each file imports (static, type-only, re-exports and dynamic imports), kept to `files`. */
function importGraph(files: readonly string[], options: ts.CompilerOptions): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((imported) => ts.resolveModuleName(imported.fileName, file, options, ts.sys).resolvedModule)
      .map((resolved) => (resolved === undefined ? "" : path.resolve(resolved.resolvedFileName)))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's strongly connected components: those of more than one file, or a file that imports itself. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) visit(next);
      if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let top: string | undefined;
    do {
      top = stack.pop();
      if (top === undefined) break;
      onStack.delete(top);
      component.push(top);
    } while (top !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** The import cycles among the files under `folders` (relative to `root`), each as sorted repo-relative paths. */
export function importCycles(root: string, folders: readonly string[]): string[][] {
  const files = folders.flatMap((folder) => sourceFiles(path.resolve(root, folder)));
  const cycles = cyclesOf(importGraph(files, compilerOptionsOf(root)));
  return cycles.map((cycle) => cycle.map((file) => path.relative(root, file).split(path.sep).join("/")).sort());
}
