import type { ESLint, Rule } from "eslint";

/** The resolved target of an import: a repo-relative path ("lib/bff/x") or a bare package specifier ("next/server"). */
export function resolveTarget(specifier: string, filename: string): string;

declare const plugin: ESLint.Plugin & { rules: { imports: Rule.RuleModule; entry: Rule.RuleModule } };
export default plugin;
