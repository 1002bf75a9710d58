import path from "node:path";

import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";

import boundaries from "./boundaries.mjs";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = path.resolve(import.meta.dirname, "../..");
const at = (file: string) => path.join(root, file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const rule = boundaries.rules.imports;

const serverOnly = [{ pattern: "^next(/|$)|^(lib/(bff|mirror)|sandbox)(/|$)", message: "No." }];
const browser = [
  { pattern: "^zod$", message: "No zod." },
  { pattern: "^lib/model(/index(\\.ts)?)?$", allowTypeImports: true, message: "Types only." },
  { pattern: "^(lib/(fleet-api|bff|mirror)|sandbox)(/|$)", message: "Server." },
];

tester.run("boundaries/imports", rule, {
  valid: [
    { filename: at("lib/fleet-api/client.ts"), code: `import { x } from "./http";`, options: [{ zones: serverOnly }] },
    { filename: at("lib/fleet-api/client.ts"), code: `import { z } from "zod";`, options: [{ zones: serverOnly }] },
    {
      filename: at("components/stations/a.tsx"),
      code: `import type { Station } from "@/lib/model"; import { X } from "../ui/button"; import { Y } from "./b";`,
      options: [{ zones: browser, features: { root: "components", shared: ["ui"] } }],
    },
    {
      filename: at("components/stations/a.tsx"),
      code: `import { type Station } from "../../lib/model";`,
      options: [{ zones: browser }],
    },
    // A server page under app/ may use the BFF; only "use client" modules get the browser's rules.
    {
      filename: at("app/(dashboard)/page.tsx"),
      code: `import { readSession } from "@/lib/bff/session";`,
      options: [{ zones: browser, onlyClientModules: true }],
    },
  ],
  invalid: [
    {
      filename: at("lib/fleet-api/client.ts"),
      code: `import { x } from "@/lib/bff/cache";`,
      options: [{ zones: serverOnly }],
      errors: [{ message: "No. (imports lib/bff/cache)" }],
    },
    // The same target spelt relatively is caught too.
    {
      filename: at("lib/fleet-api/client.ts"),
      code: `import { x } from "../bff/cache";`,
      options: [{ zones: serverOnly }],
      errors: [{ message: "No. (imports lib/bff/cache)" }],
    },
    {
      filename: at("lib/fleet-api/sub/deep.ts"),
      code: `export { x } from "../../../sandbox/app";`,
      options: [{ zones: serverOnly }],
      errors: [{ message: "No. (imports sandbox/app)" }],
    },
    {
      filename: at("lib/fleet-api/client.ts"),
      code: `const m = await import("next/server");`,
      options: [{ zones: serverOnly }],
      errors: 1,
    },
    {
      filename: at("components/stations/a.tsx"),
      code: `import { Station } from "@/lib/model";`,
      options: [{ zones: browser }],
      errors: [{ message: "Types only. (imports lib/model)" }],
    },
    {
      filename: at("components/stations/a.tsx"),
      code: `import { x } from "../overview/card-states";`,
      options: [{ zones: browser, features: { root: "components", shared: ["ui"] } }],
      errors: [
        {
          message:
            "components/stations may not import components/overview (imports components/overview/card-states): move what both need to components/ui.",
        },
      ],
    },
    {
      filename: at("app/(dashboard)/error.tsx"),
      code: `"use client";\nimport { x } from "../../lib/bff/errors";`,
      options: [{ zones: browser, onlyClientModules: true }],
      errors: [{ message: "Server. (imports lib/bff/errors)" }],
    },
  ],
});

const mirrorEntry = [{ folders: [{ folder: "lib/mirror", message: "Entry only." }] }];

tester.run("boundaries/entry", boundaries.rules.entry, {
  valid: [
    { filename: at("lib/bff/catalog.ts"), code: `import { readCatalog } from "@/lib/mirror";`, options: mirrorEntry },
    {
      filename: at("lib/insights/a.ts"),
      code: `import type { MirrorStore } from "../mirror/index";`,
      options: mirrorEntry,
    },
    // Inside lib/mirror (its modules and tests) any module may be imported.
    {
      filename: at("lib/mirror/catalog.test.ts"),
      code: `import { purgeCatalog } from "./catalog";`,
      options: mirrorEntry,
    },
    // lib/bff/mirror is another folder, though spelt "../mirror/" from lib/bff/operations.
    {
      filename: at("lib/bff/operations/sync-now.ts"),
      code: `import { x } from "../mirror/instance";`,
      options: mirrorEntry,
    },
  ],
  invalid: [
    {
      filename: at("lib/bff/catalog.ts"),
      code: `import { recordCatalogWalk } from "@/lib/mirror/catalog";`,
      options: mirrorEntry,
      errors: [{ message: "Entry only. (imports lib/mirror/catalog)" }],
    },
    {
      filename: at("lib/insights/savings.ts"),
      code: `import type { CatalogStation } from "../mirror/types";`,
      options: mirrorEntry,
      errors: [{ message: "Entry only. (imports lib/mirror/types)" }],
    },
    {
      filename: at("bench/parts/x.ts"),
      code: `export { toRow } from "../../lib/mirror/rows.ts";`,
      options: mirrorEntry,
      errors: [{ message: "Entry only. (imports lib/mirror/rows)" }],
    },
    {
      filename: at("scripts/mirror.ts"),
      code: `const m = await import("@/lib/mirror/usage");`,
      options: mirrorEntry,
      errors: 1,
    },
  ],
});
