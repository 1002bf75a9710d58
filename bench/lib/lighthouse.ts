/**
 * Lighthouse 12 through its Node API, in Debian's Chromium (chrome-launcher picks a free debugging port). One
 * Chromium serves every run (each run opens its own tab) until a run fails to record its trace.
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
  /** Each script the page loaded and its bytes transferred (to tell the page's own JS from a lazy chunk). */
  scripts: { url: string; transferSize: number }[];
  /** URLs of every request the page made. */
  requestUrls: string[];
  /** The LCP element as Lighthouse names it (a CSS selector and its text), or "" when it reports none. */
  lcpElement: string;
  /** The elements that moved the most (the layout-shifts audit), with their share of the CLS. */
  shifts: string[];
  /** The accessibility and best-practices audits that did not pass (their ids), so a score below 100 says why. */
  failedAudits: { accessibility: string[]; bestPractices: string[] };
  /** Lighthouse's own CPU benchmark of the host (higher is faster; `environment.benchmarkIndex`). */
  benchmarkIndex: number;
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

interface NodeDetails {
  type?: string;
  selector?: string;
  nodeLabel?: string;
}

/** "selector (text…)" of a Lighthouse node item. */
function describeNode(node: NodeDetails | undefined): string {
  if (node?.type !== "node") return "";
  const label = (node.nodeLabel ?? "").slice(0, 60);
  return `${node.selector ?? "?"}${label === "" ? "" : ` ("${label}")`}`;
}

/** The LCP element: Lighthouse 12 puts it in the first table of the audit's list (or in a table of its own). */
function lcpElementOf(lhr: Lhr): string {
  type Table = { type?: string; items?: { node?: NodeDetails }[] };
  const details = lhr.audits["largest-contentful-paint-element"]?.details as
    { type?: string; items?: (Table & { node?: NodeDetails })[] } | undefined;
  const table: Table | undefined = details?.type === "list" ? details.items?.[0] : details;
  return describeNode(table?.items?.[0]?.node);
}

function shiftsOf(lhr: Lhr): string[] {
  const details = lhr.audits["layout-shifts"]?.details as
    { items?: { node?: NodeDetails; score?: number }[] } | undefined;
  return (details?.items ?? []).slice(0, 3).map((i) => `${describeNode(i.node)} ${(i.score ?? 0).toFixed(3)}`);
}

/** Audits of a category that count (weight > 0) and scored below 1. */
function failedAuditsOf(lhr: Lhr, category: string): string[] {
  return (lhr.categories[category]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0)
    .filter((ref) => {
      const score = lhr.audits[ref.id]?.score;
      return score !== null && score !== undefined && score < 1;
    })
    .map((ref) => ref.id);
}

export interface LighthouseRunner {
  run(url: string, preset: Preset, headers?: Record<string, string>): Promise<LighthouseResult>;
}

async function launchChromium(): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ["--headless=new", "--no-sandbox"] });
}

export async function launchLighthouse(): Promise<LighthouseRunner> {
  let chrome = await launchChromium();
  register("chromium (Lighthouse)", async () => {
    chrome.kill();
    await Promise.resolve();
  });
  return {
    async run(url, preset, headers = {}) {
      const flags = (): Flags => ({
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices"],
        extraHeaders: headers,
      });
      const config: Config | undefined = preset === "desktop" ? desktopConfig : undefined;
      // Lighthouse sometimes fails to record a trace (NO_NAVSTART, NO_FCP): try again, in a new Chromium, since a
      // browser that lost one trace often loses the next ones too (session 15: three NO_NAVSTART in a row).
      let lhr: Lhr;
      for (let attempt = 1; ; attempt++) {
        const result = await lighthouse(url, flags(), config);
        if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
        if (!result.lhr.runtimeError) {
          lhr = result.lhr;
          break;
        }
        if (attempt >= ATTEMPTS)
          throw new Error(
            `Lighthouse on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message} (${String(ATTEMPTS)} attempts)`,
          );
        console.log(`[bench]   Lighthouse on ${url}: ${result.lhr.runtimeError.code}; trying again in a new Chromium`);
        chrome.kill();
        chrome = await launchChromium();
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
      const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const summary = (lhr.audits["resource-summary"]?.details ?? {}) as {
        items?: { resourceType: string; transferSize: number }[];
      };
      const network = (lhr.audits["network-requests"]?.details ?? {}) as {
        items?: { url: string; resourceType?: string; transferSize?: number }[];
      };
      return {
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        lcpMs: numeric("largest-contentful-paint"),
        tbtMs: numeric("total-blocking-time"),
        cls: numeric("cumulative-layout-shift"),
        scriptBytes: summary.items?.find((i) => i.resourceType === "script")?.transferSize ?? Number.NaN,
        scripts: (network.items ?? [])
          .filter((i) => i.resourceType === "Script")
          .map((i) => ({ url: i.url, transferSize: i.transferSize ?? 0 })),
        requestUrls: (network.items ?? []).map((i) => i.url),
        lcpElement: lcpElementOf(lhr),
        shifts: shiftsOf(lhr),
        failedAudits: {
          accessibility: failedAuditsOf(lhr, "accessibility"),
          bestPractices: failedAuditsOf(lhr, "best-practices"),
        },
        benchmarkIndex: lhr.environment.benchmarkIndex,
      };
    },
  };
}
