/** What every part gets: the run's options, a way to add figures, and the servers and browser parts share. */
import { type Browser, chromium } from "@playwright/test";

import { type App, type Session, signIn, startBenchApp } from "./app";
import { register } from "./processes";
import { type Figure, type FigureInput, makeFigure, notMeasured, type PartName } from "./report";
import { type Sandbox, seededDatabase, startSandbox, UNLIMITED_BUDGET } from "./sandbox";

export interface BenchOptions {
  /** Tiny sizes and single runs: checks that the bench works, in under two minutes. */
  smoke: boolean;
  /** The long variants (real-time export windows, longer load runs). */
  long: boolean;
  /** Seed cached databases anew. */
  reseed: boolean;
}

/** The demo stack most parts measure: the sandbox (request log on, no budget limit) and the app, signed in. */
export interface Stack {
  sandbox: Sandbox;
  app: App;
  session: Session;
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** The app's budget when the budget is not what is measured: high enough that no part ever waits for it. */
export const APP_UNLIMITED_BUDGET = "100000";

export class BenchContext {
  readonly figures: Figure[] = [];
  /** This run's CPU calibration figure (bench/lib/calibration.ts), set before the parts run; goals that depend on the
   * host's speed (the pages' TBT) are stated from it. */
  calibrationMs: number | undefined;
  private stack: Promise<Stack> | undefined;
  private browserPromise: Promise<Browser> | undefined;

  constructor(readonly options: BenchOptions) {}

  /** The command that reproduces a part's figures. */
  command(part: PartName): string {
    return `npm run bench -- ${part}${this.options.smoke ? " --smoke" : ""}${this.options.long ? " --long" : ""}`;
  }

  add(input: Omit<FigureInput, "command"> & { command?: string }): void {
    this.figures.push(makeFigure({ ...input, command: input.command ?? this.command(input.part) }));
  }

  notMeasured(input: Omit<FigureInput, "command" | "value"> & { reason: string }): void {
    this.figures.push(notMeasured({ ...input, command: this.command(input.part) }));
  }

  /** Started once, on first use, and shared by the parts that run after. */
  shared(): Promise<Stack> {
    this.stack ??= (async () => {
      const sandbox = await startSandbox({
        db: seededDatabase({}, this.options.reseed),
        log: true,
        args: ["--budget", String(UNLIMITED_BUDGET)],
      });
      const app = await startBenchApp(sandbox.baseUrl, { FLEET_API_BUDGET: APP_UNLIMITED_BUDGET });
      const session = await signIn(app.origin, sandbox.key);
      return { sandbox, app, session };
    })();
    return this.stack;
  }

  /** Debian's Chromium through Playwright, launched once. */
  browser(): Promise<Browser> {
    this.browserPromise ??= (async () => {
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
      register("chromium (Playwright)", () => browser.close());
      return browser;
    })();
    return this.browserPromise;
  }
}

export type Part = (ctx: BenchContext) => Promise<void>;
