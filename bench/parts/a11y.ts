/** Part 7: axe (wcag2a, wcag2aa, wcag21aa) on every page in light and dark theme: violations by impact. */
import AxeBuilder from "@axe-core/playwright";

import { signedInContext, waitSettled } from "../lib/browser";
import type { BenchContext } from "../lib/context";

const IMPACTS = ["critical", "serious", "moderate", "minor"] as const;
const TAGS = ["wcag2a", "wcag2aa", "wcag21aa"];

export async function runA11yPart(ctx: BenchContext): Promise<void> {
  const { sandbox, app } = await ctx.shared();
  const browser = await ctx.browser();
  // A transaction's detail page: the first id of the list.
  const idProbe = await signedInContext(browser, app.origin, sandbox.key);
  const first = (
    (await (await idProbe.request.get("/api/transactions?limit=1")).json()) as { items?: { id: string }[] }
  ).items?.[0]?.id;
  await idProbe.close();
  const pages = [
    "/login",
    "/",
    "/transactions",
    ...(first ? [`/transactions/${encodeURIComponent(first)}`] : []),
    "/stations",
  ];
  const selected = ctx.options.smoke ? ["/login", "/"] : pages;
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await signedInContext(browser, app.origin, sandbox.key, { colorScheme });
    try {
      for (const path of selected) {
        const page = await context.newPage();
        // /login with a session still shows the form; it is scanned as a visitor sees it.
        await page.goto(path);
        await waitSettled(page);
        const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
        const byImpact = Object.fromEntries(
          IMPACTS.map((impact) => [impact, results.violations.filter((v) => v.impact === impact)]),
        );
        const total = results.violations.length;
        const detail = IMPACTS.map(
          (impact) =>
            `${impact} ${String(byImpact[impact]?.length ?? 0)}${byImpact[impact]?.length ? ` (${(byImpact[impact] ?? []).map((v) => `${v.id} ×${String(v.nodes.length)}`).join(", ")})` : ""}`,
        ).join("; ");
        const name = path.startsWith("/transactions/") ? "/transactions/[id]" : path;
        ctx.add({
          part: "a11y",
          name: `${name} ${colorScheme}: violations`,
          value: total,
          goal: { op: "<=", target: 0 },
          note: `${detail}; axe-core via @axe-core/playwright, tags ${TAGS.join(", ")}, prefers-color-scheme ${colorScheme}`,
        });
        await page.close();
      }
    } finally {
      await context.close();
    }
  }
}
