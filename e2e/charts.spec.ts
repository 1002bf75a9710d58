// Legible charts (issue 26 item 1): the daily chart's axis text is 12–14 CSS px at every width (it used to scale with
// the SVG's viewBox: 4–5 px on a phone, ~20 px on a wide desktop), and no two of its labels overlap. Measured in the
// real browser: each text's computed font size times the SVG's scale on screen, and its box on the page. The overview's
// chart and a drill-down's (the same component) at phone, tablet, laptop and wide desktop widths.
import type { Locator, Page } from "@playwright/test";

import { expect, expectLoaded, test } from "./fixtures";
import { MIRROR_READY_TIMEOUT_MS, waitForMirrorReady } from "./mirror-ready";

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const MIN_TEXT_PX = 12;
const MAX_TEXT_PX = 14;
/** Inter's ascent and descent: an SVG text's box is about 1.21 em tall. */
const LINE_BOX_EM = 1.25;

interface MeasuredText {
  text: string;
  /** The font size as drawn on screen: the computed size times the SVG's scale. */
  fontPx: number;
  /** Rotated (the axis names): its box's height is its length. */
  isRotated: boolean;
  box: { left: number; top: number; right: number; bottom: number; height: number };
}

/** Every visible text of the chart, measured on the page. */
async function measureTexts(chart: Locator): Promise<MeasuredText[]> {
  return chart.locator("text").evaluateAll((elements) =>
    elements.map((element) => {
      const text = element as SVGTextElement;
      const matrix = text.getScreenCTM();
      const scale = matrix === null ? 1 : Math.hypot(matrix.a, matrix.b);
      const rect = text.getBoundingClientRect();
      return {
        text: text.textContent,
        fontPx: Number.parseFloat(getComputedStyle(text).fontSize) * scale,
        isRotated: matrix !== null && Math.abs(matrix.b) > Math.abs(matrix.a),
        box: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom, height: rect.height },
      };
    }),
  );
}

function overlaps(a: MeasuredText["box"], b: MeasuredText["box"]): boolean {
  // Half a pixel of tolerance for antialiased edges that merely touch.
  const slack = 0.5;
  return a.left < b.right - slack && b.left < a.right - slack && a.top < b.bottom - slack && b.top < a.bottom - slack;
}

/** The summary behind the chart may walk the upstream while the local copy syncs (the start of a run): wait for it. */
const CHART_WAIT_MS = 60_000;

async function expectLegible(page: Page, chart: Locator): Promise<void> {
  await expect(chart).toBeVisible({ timeout: CHART_WAIT_MS });
  const texts = await measureTexts(chart);
  expect(texts.length).toBeGreaterThanOrEqual(6);
  for (const t of texts) {
    expect(t.fontPx, `font size of "${t.text}"`).toBeGreaterThanOrEqual(MIN_TEXT_PX - 0.01);
    expect(t.fontPx, `font size of "${t.text}"`).toBeLessThanOrEqual(MAX_TEXT_PX + 0.01);
    if (!t.isRotated) {
      expect(t.box.height, `height of "${t.text}"`).toBeGreaterThanOrEqual(MIN_TEXT_PX);
      expect(t.box.height, `height of "${t.text}"`).toBeLessThanOrEqual(MAX_TEXT_PX * LINE_BOX_EM);
    }
  }
  const clashes: string[] = [];
  for (let i = 0; i < texts.length; i += 1)
    for (let j = i + 1; j < texts.length; j += 1) {
      const [a, b] = [texts[i], texts[j]];
      if (a !== undefined && b !== undefined && overlaps(a.box, b.box)) clashes.push(`"${a.text}" × "${b.text}"`);
    }
  expect(clashes, "labels that overlap").toEqual([]);
  // Thinned, not dropped: at least the first and last of several day labels.
  expect(texts.filter((t) => /^[A-Z][a-z]{2} \d{1,2}$/.test(t.text)).length).toBeGreaterThanOrEqual(2);
  // Drawn in its measured size: the chart sits inside the page's width (nothing scrolls sideways).
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

for (const viewport of VIEWPORTS) {
  test(`the overview's chart text is 12–14 px and no labels overlap at ${String(viewport.width)}×${String(viewport.height)}`, async ({
    loggedInPage: page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto("/");
    // The chart card alone: the other cards' loading (the local copy syncing at the start of a run) is not its business.
    const card = page.getByRole("region", { name: "Daily spend and gallons" });
    await expectLegible(page, card.getByRole("img", { name: /Daily spend and gallons/ }));
  });
}

test("a drill-down's trend chart is legible on a phone and on a wide desktop", async ({ loggedInPage: page }) => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 60_000);
  await waitForMirrorReady(page);
  await page.goto("/drivers");
  await expectLoaded(page);
  const driver = page.getByTestId("drilldown-table").locator("tbody tr[data-key]").first().getByRole("link").first();
  const href = await driver.getAttribute("href");
  if (href === null) throw new Error("the first driver has no link");
  for (const viewport of [VIEWPORTS[0], VIEWPORTS[3]]) {
    await page.setViewportSize(viewport);
    await page.goto(href);
    await expectLoaded(page);
    await expectLegible(page, page.getByRole("img", { name: /(Daily|Weekly) spend and gallons/ }));
  }
});
