// ESLint flat config with typed rules (typescript-eslint), React hooks and Next's own rules.
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import simpleImportSort from "eslint-plugin-simple-import-sort";
import globals from "globals";
import tseslint from "typescript-eslint";

import boundaries from "./scripts/lint/boundaries.mjs";

const SANDBOX = "sandbox/ is the provider's side: it imports nothing of the app.";
const MODEL = "lib/model holds the shared types and rules: it depends on no framework and no other layer.";
const MIRROR_ENTRY =
  "Outside lib/mirror, import the mirror from its entry, @/lib/mirror (lib/mirror/index.ts): export what you need there.";
/** Layers under the BFF reach none of Next, the layers named, and the sandbox. */
const serverLayer = (message, layers) => [{ pattern: `^next(/|$)|^(lib/(${layers})|sandbox)(/|$)`, message }];
// zod stays out of the browser: 31 kB gzip on every page, and its JIT probe (Function("")) is a violation of our CSP,
// which has no 'unsafe-eval'. The BFF validates what it sends; pages import types and zod-free constants
// (lib/model/us-states, lib/model/products, lib/model/decimal-math).
const BROWSER_ZONES = [
  { pattern: "^zod$", message: "No zod in browser code (bundle size, CSP): the BFF validates its replies." },
  {
    pattern: "^lib/model(/index(\\.ts)?)?$",
    allowTypeImports: true,
    message:
      "Browser code imports types from @/lib/model, and values from its zod-free modules (e.g. @/lib/model/us-states).",
  },
  {
    pattern: "^(lib/(fleet-api|bff|mirror)|sandbox)(/|$)",
    message: "Browser code talks to the BFF over HTTP, never to server modules.",
  },
];

/** lib/bff's resource folders (one per resource) and the folders every one of them may import. */
const BFF_RESOURCES = ["transactions", "stations", "insights", "session", "sync", "health", "test-hooks"];
const BFF_FEATURES = {
  root: "lib/bff",
  shared: ["http", "platform", "files"],
  entries: true,
  hint: "import its entry (index.ts) instead, or move what both need to lib/bff/platform.",
};
const BFF_OUTSIDE = [
  {
    pattern: "^lib/fleet-api/",
    message: "The BFF reaches the upstream client through lib/fleet-api's entry (@/lib/fleet-api) only.",
  },
  { pattern: "^(components|app|lib/queries)(/|$)", message: "The BFF imports nothing of the pages." },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      "coverage/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: {
      "@next/next": nextPlugin,
      "react-hooks": reactHooks,
      boundaries,
      "simple-import-sort": simpleImportSort,
    },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-definitions": "off",
      // Imports in one order everywhere (packages, then @/ paths, then relative), fixed by `npm run lint -- --fix`.
      "simple-import-sort/imports": "error",
      "simple-import-sort/exports": "error",
      // A function longer than a screen does more than one job; tests (long tables of cases) are excepted below.
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
      // A file over 300 lines holds more than one job: split it by job, tests and e2e specs too (by topic, shared
      // setup in a helper module next to them); the data file is excepted below.
      "max-lines": ["error", { max: 300, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: ["**/*.test.ts", "**/*.test.tsx", "e2e/**/*.ts", "test/**/*.ts"],
    rules: { "max-lines-per-function": "off" },
  },
  {
    // Figures for people are written by lib/format (issue 27: six modules had their own); tests and e2e specs may
    // compute what they expect, and the bench and scripts print for operators.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}"],
    ignores: ["lib/format/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.object.name='Intl'][callee.property.name='NumberFormat']",
          message: "Numbers for people go through lib/format/numbers.ts (add the format there, with a test).",
        },
        {
          selector: "CallExpression[callee.property.name='toLocaleString']",
          message: "Numbers and dates for people go through lib/format (numbers.ts, dates.ts).",
        },
      ],
    },
  },
  {
    files: ["sandbox/db/geo-data.ts"],
    rules: { "max-lines": "off" },
  },
  // Architecture boundaries (ARCHITECTURE.md, "Import rules"), checked on the resolved target so that relative
  // imports (`../bff/x`) are caught as well as `@/lib/bff/x` (scripts/lint/boundaries.mjs).
  {
    files: ["sandbox/**/*.ts"],
    rules: {
      "boundaries/imports": ["error", { zones: [{ pattern: "^(lib|app|components|next)(/|$)", message: SANDBOX }] }],
    },
  },
  {
    // lib/mirror/index.ts is the mirror's one way in; its own modules and tests import any of its modules.
    files: ["**/*.{ts,tsx,mts}"],
    rules: { "boundaries/entry": ["error", { folders: [{ folder: "lib/mirror", message: MIRROR_ENTRY }] }] },
  },
  {
    files: ["lib/fleet-api/**/*.ts"],
    rules: {
      "boundaries/imports": [
        "error",
        {
          zones: serverLayer(
            "lib/fleet-api depends on neither Next nor the BFF nor the mirror nor the sandbox.",
            "bff|mirror",
          ),
        },
      ],
    },
  },
  {
    files: ["lib/mirror/**/*.ts"],
    rules: {
      "boundaries/imports": [
        "error",
        {
          zones: serverLayer(
            "lib/mirror reaches the upstream through lib/fleet-api only and depends on neither Next nor the BFF nor the sandbox.",
            "bff",
          ),
        },
      ],
    },
  },
  {
    // lib/bff is sorted by resource (ARCHITECTURE.md, "lib/bff and the routes"): a resource folder's modules import
    // their own folder, the adapter (http/), the services (platform/), the file writers (files/), and another
    // resource only through its entry (index.ts: what ctx.services will carry); lib/fleet-api through its entry.
    // Operations run without Next (tests call run(ctx, input)): lib/bff/http/route.ts is their one adapter. Tests and
    // test helpers assemble what they check and are not held to this.
    files: [`lib/bff/{${BFF_RESOURCES.join(",")}}/**/*.ts`],
    ignores: ["**/*.test.ts", "**/test-*.ts"],
    rules: {
      "boundaries/imports": [
        "error",
        {
          zones: [
            {
              pattern: "^next(/|$)",
              message:
                "Operations run without Next (tests call run(ctx, input)); lib/bff/http/route.ts is their one adapter to a route.",
            },
            ...BFF_OUTSIDE,
          ],
          features: BFF_FEATURES,
        },
      ],
    },
  },
  {
    // A server page's helper (the drill-down pages' 404 before streaming): Next's notFound, not a route's.
    files: ["lib/bff/insights/drilldown-page.ts"],
    rules: { "boundaries/imports": ["error", { zones: BFF_OUTSIDE, features: BFF_FEATURES }] },
  },
  {
    // The adapter, the services and the file writers serve every resource and reach none but through its entry.
    files: ["lib/bff/{http,platform,files}/**/*.ts"],
    // The worker's task table runs the exceptions' readers off the main thread: it is where the pool meets them.
    ignores: ["**/*.test.ts", "**/test-*.ts", "lib/bff/platform/off-thread/tasks-exceptions.ts"],
    rules: { "boundaries/imports": ["error", { zones: BFF_OUTSIDE, features: BFF_FEATURES }] },
  },
  {
    files: ["lib/model/**/*.ts"],
    rules: {
      "boundaries/imports": [
        "error",
        {
          zones: [
            {
              pattern: "^(next|react|react-dom)(/|$)|^(lib/(bff|fleet-api|mirror|queries)|components|app|sandbox)(/|$)",
              message: MODEL,
            },
          ],
        },
      ],
    },
  },
  {
    // The route planner runs in the browser (the /stations Route mode) and in Node (tests, the bench): browser rules.
    files: ["lib/format/**/*.ts", "lib/route/**/*.ts"],
    rules: { "boundaries/imports": ["error", { zones: BROWSER_ZONES }] },
  },
  {
    // Feature folders of components/ stay apart: what two of them need lives in components/ui. Shared too: the
    // insight pages' range picker and coverage note (components/insights), and the overview's chart and period change
    // that the drill-downs reuse (components/overview) rather than copy, and the savings panel (components/savings).
    // Inside components/stations the same rule again: map, nearby, route-planner and detail share only through
    // components/stations/shared (the page's own files at the folder's top compose them and are not checked).
    files: ["components/**/*.{ts,tsx}", "lib/queries/**/*.{ts,tsx}"],
    rules: {
      "boundaries/imports": [
        "error",
        {
          zones: BROWSER_ZONES,
          features: [
            { root: "components", shared: ["ui", "insights", "overview", "savings"] },
            { root: "components/stations", shared: ["shared"] },
          ],
        },
      ],
    },
  },
  {
    // Browser code that lives under app/ ("use client" pages, error boundaries) keeps the browser's rules.
    files: ["app/**/*.{ts,tsx}"],
    rules: { "boundaries/imports": ["error", { zones: BROWSER_ZONES, onlyClientModules: true }] },
  },
  {
    files: ["**/*.mjs", "**/*.cjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
);
