import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { importCycles } from "./import-cycles";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("import cycles", () => {
  // Issue 27: lib/mirror's store ↔ catalog/rollups/writes (12 cycles madge counted) and lib/insights' savings ↔
  // savings-top, broken by moving the types they shared to lib/mirror/types.ts and lib/insights/savings-types.ts.
  it("there are none in lib/mirror and lib/insights", () => {
    expect(importCycles(ROOT, ["lib/mirror", "lib/insights"])).toEqual([]);
  });

  describe("the checker", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ffd-cycles-"));
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    write(
      "tsconfig.json",
      JSON.stringify({ compilerOptions: { moduleResolution: "bundler", paths: { "@/*": ["./*"] } } }),
    );
    write("a/store.ts", `import { purge } from "./catalog";\nexport class Store {}\nexport const p = purge;\n`);
    // A type-only import closes a cycle too (madge counts it; the types move to a module of their own instead).
    write("a/catalog.ts", `import type { Store } from "@/a/store";\nexport const purge = (s: Store) => s;\n`);
    write("a/leaf.ts", `import { Store } from "./store";\nexport const s = new Store();\n`);
    write("b/x.ts", `export { y } from "../b/y";\n`);
    write("b/y.ts", `export const y = 1;\nexport const load = () => import("./x");\n`);

    it("finds cycles through the @/ alias, type-only imports, re-exports and dynamic imports", () => {
      const cycles = importCycles(dir, ["a", "b"]).sort((p, q) => (p[0] ?? "").localeCompare(q[0] ?? ""));
      expect(cycles).toEqual([
        ["a/catalog.ts", "a/store.ts"],
        ["b/x.ts", "b/y.ts"],
      ]);
    });

    it("counts only imports between the folders asked about", () => {
      write("c/only.ts", `import { Store } from "../a/store";\nexport const t = Store;\n`);
      expect(importCycles(dir, ["c"])).toEqual([]);
    });
  });
});
