import type { ESLint, Rule } from "eslint";

declare const plugin: ESLint.Plugin & { rules: { imports: Rule.RuleModule; entry: Rule.RuleModule } };
export default plugin;
