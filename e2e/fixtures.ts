// Fixtures shared by every spec: the project's sandbox profile, the sandbox's demo key pairs, and a page that is
// already signed in through the BFF's API (so only the login specs go through the form).
import { execFileSync } from "node:child_process";

import { type APIRequestContext, expect, type Locator, type Page, test as base } from "@playwright/test";
import { z } from "zod";

import { liveAppOrigin, type Profile, serversOf } from "./profiles";

const DEMO_KEY_LABELS = ["demo-full", "demo-no-transactions", "demo-revoked", "demo-allowlist", "other-full"] as const;
type DemoKeyLabel = (typeof DEMO_KEY_LABELS)[number];

export interface DemoKey {
  label: DemoKeyLabel;
  /** Customer code: PFL (Prairie Freight Lines) or CHI (Coastal Haulers Inc.). */
  customer: string;
  keyId: string;
  secret: string;
}

export type DemoKeys = Readonly<Record<DemoKeyLabel, DemoKey>>;

/** The demo customer's name, shown in the shell once signed in with a PFL key. */
export const DEMO_CUSTOMER_NAME = "Prairie Freight Lines";

export interface E2eWorkerOptions {
  /** The sandbox profile this project runs against (set per project in playwright.config.ts). */
  profile: Profile;
}

interface E2eWorkerFixtures {
  /** The seeded demo key pairs of this project's sandbox, read with `sandbox/cli.ts keys demo --json`. */
  demoKeys: DemoKeys;
}

interface E2eTestFixtures {
  /** The origin of this project's app (from use.baseURL), e.g. for the Origin header of a same-origin POST. */
  appOrigin: string;
  /** `page`, with a session cookie for `demo-full` in its context (signed in through `POST /api/session`). */
  loggedInPage: Page;
}

const DemoKeysJson = z.array(
  z.object({ label: z.string(), customer: z.string(), key_id: z.string().min(1), secret: z.string().min(1) }),
);

function readDemoKeys(profile: Profile): DemoKeys {
  // The sandbox (a webServer) has seeded this database before any test runs.
  const stdout = execFileSync(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "sandbox/cli.ts", "keys", "demo", "--json", "--db", serversOf(profile).db],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
    },
  );
  const rows = DemoKeysJson.parse(JSON.parse(stdout));
  const byLabel = new Map(rows.map((row) => [row.label, row]));
  const entries = DEMO_KEY_LABELS.map((label): [DemoKeyLabel, DemoKey] => {
    const row = byLabel.get(label);
    if (row === undefined)
      throw new Error(
        `the sandbox has no demo key "${label}" (keys demo printed: ${rows.map((r) => r.label).join(", ")})`,
      );
    return [label, { label, customer: row.customer, keyId: row.key_id, secret: row.secret }];
  });
  return Object.fromEntries(entries) as Record<DemoKeyLabel, DemoKey>;
}

/** What the BFF says the filtered transaction total is (`query`: "" for all, or "&status=failed…"). */
export async function bffTotal(page: Page, query = ""): Promise<number> {
  const response = await page.request.get(`/api/transactions?limit=1${query}`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { total?: unknown };
  if (typeof body.total !== "number") throw new Error(`no total in ${JSON.stringify(body)}`);
  return body.total;
}

/** What the dashboard's own pages send with `POST`/`DELETE /api/session` (the BFF's CSRF checks). */
export function sameOriginHeaders(appOrigin: string): Record<string, string> {
  return { "X-Requested-With": "XMLHttpRequest", Origin: appOrigin };
}

/**
 * Signs in through the BFF as the login page does (same-origin JSON POST with the CSRF headers). With `page.request`
 * the session cookie lands in the page's browser context.
 */
export async function signInThroughApi(
  request: APIRequestContext,
  appOrigin: string,
  key: Pick<DemoKey, "keyId" | "secret">,
): Promise<void> {
  const response = await request.post("/api/session", {
    data: { keyId: key.keyId, secret: key.secret },
    headers: sameOriginHeaders(appOrigin),
  });
  expect(response.status(), `POST /api/session answered ${response.status()}: ${await response.text()}`).toBe(200);
}

export const test = base.extend<E2eTestFixtures, E2eWorkerOptions & E2eWorkerFixtures>({
  profile: ["primary", { scope: "worker", option: true }],
  demoKeys: [
    async ({ profile }, provide) => {
      await provide(readDemoKeys(profile));
    },
    { scope: "worker" },
  ],
  appOrigin: async ({ baseURL }, provide) => {
    if (baseURL === undefined)
      throw new Error("use.baseURL is not set (it is set per project in playwright.config.ts)");
    await provide(new URL(baseURL).origin);
  },
  loggedInPage: async ({ page, appOrigin, demoKeys }, provide) => {
    await signInThroughApi(page.request, appOrigin, demoKeys["demo-full"]);
    await provide(page);
  },
});

/**
 * `test` on the profile's app without a mirror (e2e/profiles.ts liveAppOrigin): for specs whose subject is the
 * upstream path — faults the sandbox injects, rate limits, exports walked page by page — which a synced mirror would
 * answer without asking the upstream. Its sandbox is the profile's second one (same seed, so the same keys and rows);
 * only the specs of UPSTREAM_SPECS use it (their Playwright project sets the same origin).
 */
export const liveTest = test.extend({
  baseURL: async ({ profile }, provide) => {
    await provide(liveAppOrigin(profile));
  },
});

export { expect };

/** The session cookie's name with the app's production settings (Secure, hence the `__Host-` prefix). */
const SESSION_COOKIE_NAME = "__Host-ffd_session";

/** The session cookie in the page's browser context, as a `Cookie` header value for another client to replay. */
export async function sessionCookieOf(
  page: Page,
): Promise<{ header: string; httpOnly: boolean; secure: boolean; sameSite: string }> {
  const cookies = await page.context().cookies();
  const cookie = cookies.find((c) => c.name === SESSION_COOKIE_NAME);
  if (cookie === undefined)
    throw new Error(
      `no ${SESSION_COOKIE_NAME} cookie; the context holds: ${cookies.map((c) => c.name).join(", ") || "none"}`,
    );
  return {
    header: `${cookie.name}=${cookie.value}`,
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    sameSite: cookie.sameSite,
  };
}

/** The login form's parts, as the login page's contract names them. */
export function loginForm(page: Page): { keyId: Locator; secret: Locator; submit: Locator } {
  return {
    keyId: page.getByLabel("Key ID", { exact: true }),
    // exact: the "Show secret" toggle must not match.
    secret: page.getByLabel("Secret", { exact: true }),
    submit: page.getByRole("button", { name: "Sign in", exact: true }),
  };
}

/** Waits until no part of the page is loading (`aria-busy="true"`, as the cards set while their data loads). */
export async function expectLoaded(page: Page): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** The page's own alerts: Next.js's route announcer (also role="alert") is left out. */
export function pageAlerts(page: Page): Locator {
  return page.locator('[role="alert"]:not(#__next-route-announcer__)');
}

/** The fault settings of the project's sandbox (sandbox/http/control.ts); omitted fields are 0. */
export interface SandboxFaults {
  latencyMs?: number;
  errorRate?: number;
  dropRate?: number;
  malformedRate?: number;
  rateLimitSeconds?: number;
}

function faultsUrl(profile: Profile): string {
  return `http://127.0.0.1:${String(serversOf(profile).upstreamSandboxPort)}/sandbox/faults`;
}

/**
 * Makes the profile's upstream sandbox (the one the app without a mirror asks, e2e/profiles.ts) slow, failing or
 * rate-limiting, for every client, until `resetSandboxFaults`. A real upstream fault over real HTTP (the sandbox runs
 * with --control in the e2e config), not a mock of the BFF's calls. Only the specs of UPSTREAM_SPECS, which run one at
 * a time on that sandbox, may call it (scripts/test-parallelism.test.ts checks).
 */
export async function setSandboxFaults(profile: Profile, faults: SandboxFaults): Promise<void> {
  const response = await fetch(faultsUrl(profile), {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(faults),
  });
  if (!response.ok)
    throw new Error(`PUT /sandbox/faults answered ${String(response.status)}: ${await response.text()}`);
}

export async function resetSandboxFaults(profile: Profile): Promise<void> {
  const response = await fetch(faultsUrl(profile), { method: "DELETE" });
  if (!response.ok) throw new Error(`DELETE /sandbox/faults answered ${String(response.status)}`);
}

const CreatedKeyJson = z.object({ key_id: z.string().min(1), secret: z.string().min(1) });

/**
 * A new key pair of the demo customer with every scope, made with the sandbox's CLI on the database of the profile's
 * upstream sandbox (UPSTREAM_SPECS only). For a journey that changes the BFF's state of its key (a rate-limit pause),
 * so the other tests' key is untouched.
 */
export function createSandboxKey(profile: Profile): Pick<DemoKey, "keyId" | "secret"> {
  const stdout = execFileSync(
    process.execPath,
    [
      "node_modules/tsx/dist/cli.mjs",
      "sandbox/cli.ts",
      "keys",
      "create",
      "--customer",
      "PFL",
      "--scopes",
      "account,transactions,locations",
      "--label",
      "e2e",
      "--json",
      "--db",
      serversOf(profile).upstreamDb,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 },
  );
  const created = CreatedKeyJson.parse(JSON.parse(stdout));
  return { keyId: created.key_id, secret: created.secret };
}
