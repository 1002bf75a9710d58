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
const stationFeatures = [
  { root: "components", shared: ["ui"] },
  { root: "components/stations", shared: ["shared"] },
];
const bff = {
  root: "lib/bff",
  shared: ["http", "platform", "files"],
  entries: true,
  hint: "use its entry.",
};
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
    // Feature folders inside a feature folder (components/stations/map, …) may import their own shared/ and the
    // page's files above them.
    {
      filename: at("components/stations/map/a.tsx"),
      code: `import { x } from "../shared/lat-lng"; import { y } from "./b"; import { z } from "../view-state";`,
      options: [{ zones: browser, features: stationFeatures }],
    },
    // A module at a feature root's top (components/providers.tsx) belongs to no feature: any feature may import it.
    {
      filename: at("components/shell/banner.tsx"),
      code: `import { useX } from "../providers"; import { y } from "@/components/shell/nav";`,
      options: [{ features: stationFeatures }],
    },
    // A server page under app/ may use the BFF; only "use client" modules get the browser's rules.
    {
      filename: at("app/(dashboard)/page.tsx"),
      code: `import { readSession } from "@/lib/bff/session";`,
      options: [{ zones: browser, onlyClientModules: true }],
    },
    // lib/bff's resources: own folder, the shared folders, and another resource's entry (bare or index).
    {
      filename: at("lib/bff/insights/savings.ts"),
      code: `import { a } from "./serving"; import { b } from "../http/operation"; import { c } from "../platform/clock"; import { d } from "../stations"; import { e } from "@/lib/bff/sync/index";`,
      options: [{ features: bff }],
    },
  ],
  invalid: [
    // Another resource's module other than its entry is refused, spelt relatively or with @/.
    {
      filename: at("lib/bff/insights/savings.ts"),
      code: `import { getCatalog } from "../stations/catalog";`,
      options: [{ features: bff }],
      errors: [
        {
          message:
            "lib/bff/insights may not import lib/bff/stations (imports lib/bff/stations/catalog): use its entry.",
        },
      ],
    },
    {
      filename: at("lib/bff/session/sign-in.ts"),
      code: `import { mirrorService } from "@/lib/bff/sync/instance";`,
      options: [{ features: bff }],
      errors: [
        { message: "lib/bff/session may not import lib/bff/sync (imports lib/bff/sync/instance): use its entry." },
      ],
    },
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
    // One map part imports the route planner: refused like two feature folders of components/.
    {
      filename: at("components/stations/map/a.tsx"),
      code: `import type { RouteOverlay } from "@/components/stations/route-planner/route-mode";`,
      options: [{ zones: browser, features: stationFeatures }],
      errors: [
        {
          message:
            "components/stations/map may not import components/stations/route-planner (imports components/stations/route-planner/route-mode): move what both need to components/stations/shared.",
        },
      ],
    },
    // The shared folder imports none of the features that import it.
    {
      filename: at("components/stations/shared/a.ts"),
      code: `import { x } from "../nearby/nearby-results";`,
      options: [{ zones: browser, features: stationFeatures }],
      errors: 1,
    },
    // Both roots are still checked: components/stations/map is in components/stations.
    {
      filename: at("components/stations/map/a.tsx"),
      code: `import { x } from "../../overview/card-states";`,
      options: [{ zones: browser, features: stationFeatures }],
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
