// ESLint flat config with typed rules (typescript-eslint), React hooks and Next's own rules.
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
    plugins: { "@next/next": nextPlugin, "react-hooks": reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-definitions": "off",
    },
  },
  // Architecture boundaries (ARCHITECTURE.md, "Import rules").
  {
    files: ["sandbox/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/*", "../../lib/*", "../lib/*", "../../app/*", "../../components/*", "next", "next/*"],
              message: "sandbox/ is the provider's side: it imports nothing of the app.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/fleet-api/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["next", "next/*", "@/lib/bff", "@/lib/bff/*", "@/sandbox/*", "../../sandbox/*"],
              message: "lib/fleet-api depends on neither Next nor the BFF nor the sandbox.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/mirror/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["next", "next/*", "@/lib/bff", "@/lib/bff/*", "@/sandbox/*", "../../sandbox/*"],
              message:
                "lib/mirror reaches the upstream through lib/fleet-api only and depends on neither Next nor the BFF nor the sandbox.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/bff/operations/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["next", "next/*"],
              message:
                "Operations run without Next (tests call run(ctx, input)); lib/bff/operation-route.ts is their one adapter to a route.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}", "lib/queries/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          // zod stays out of the browser: 31 kB gzip on every page, and its JIT probe (Function("")) is a violation of
          // our CSP, which has no 'unsafe-eval'. The BFF validates what it sends; pages import types and zod-free
          // constants (lib/model/us-states, lib/model/products, lib/model/decimal-math).
          paths: [
            { name: "zod", message: "No zod in browser code (bundle size, CSP): the BFF validates its replies." },
            {
              name: "@/lib/model",
              allowTypeImports: true,
              message:
                "Browser code imports types from @/lib/model, and values from its zod-free modules (e.g. @/lib/model/us-states).",
            },
          ],
          patterns: [
            {
              group: ["@/lib/fleet-api", "@/lib/fleet-api/*", "@/lib/bff", "@/lib/bff/*"],
              message: "Browser code talks to the BFF over HTTP, never to server modules.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.mjs", "**/*.cjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
);
