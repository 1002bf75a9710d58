/**
 * Lighthouse 12 through its Node API, in Debian's Chromium (chrome-launcher picks a free debugging port). One
 * Chromium serves every run; each run opens its own tab.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Config, desktopConfig, type Flags } from "lighthouse";

import { CHROMIUM_PATH } from "./context";
import { register } from "./processes";

export type Preset = "desktop" | "mobile";

const ATTEMPTS = 3;

export interface LighthouseResult {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Bytes of JavaScript transferred (compressed, as on the wire). */
  scriptBytes: number;
  /** URLs of every request the page made. */
  requestUrls: string[];
}

export interface LighthouseRunner {
  run(url: string, preset: Preset, headers?: Record<string, string>): Promise<LighthouseResult>;
}

export async function launchLighthouse(): Promise<LighthouseRunner> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", "--no-sandbox"],
  });
  register("chromium (Lighthouse)", async () => {
    chrome.kill();
    await Promise.resolve();
  });
  return {
    async run(url, preset, headers = {}) {
      const flags: Flags = {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices"],
        extraHeaders: headers,
      };
      const config: Config | undefined = preset === "desktop" ? desktopConfig : undefined;
      // Lighthouse sometimes fails to record a trace (NO_NAVSTART, NO_FCP) on a busy 2-core machine: try again.
      let lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];
      for (let attempt = 1; ; attempt++) {
        const result = await lighthouse(url, flags, config);
        if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
        if (!result.lhr.runtimeError) {
          lhr = result.lhr;
          break;
        }
        if (attempt >= ATTEMPTS)
          throw new Error(
            `Lighthouse on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message} (${String(ATTEMPTS)} attempts)`,
          );
        console.log(`[bench]   Lighthouse on ${url}: ${result.lhr.runtimeError.code}; trying again`);
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
      const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const summary = (lhr.audits["resource-summary"]?.details ?? {}) as {
        items?: { resourceType: string; transferSize: number }[];
      };
      const network = (lhr.audits["network-requests"]?.details ?? {}) as { items?: { url: string }[] };
      return {
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        lcpMs: numeric("largest-contentful-paint"),
        tbtMs: numeric("total-blocking-time"),
        cls: numeric("cumulative-layout-shift"),
        scriptBytes: summary.items?.find((i) => i.resourceType === "script")?.transferSize ?? Number.NaN,
        requestUrls: (network.items ?? []).map((i) => i.url),
      };
    },
  };
}
