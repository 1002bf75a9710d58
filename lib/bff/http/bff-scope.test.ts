import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { SyncStatusReply } from "@/lib/model/mirror-replies";
import { type AppProcess, mirrorAppEnv, startApp } from "@/test/app-process";
import { errorCodeOf, type Recorded, TestBrowser } from "@/test/browser";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { operationTable, pathOf, TRANSACTIONS_DERIVED } from "./operation-table";

// Issue 24 item 1 over real HTTP: the built app (`next start`, its mirror in a temporary SQLite file) and the sandbox.
// The full demo key signs in and its local copy starts to load; then the demo key without the transactions scope
// (same customer) signs in and gets 403 scope_denied from every transactions-derived route — the list taken from the
// operation table — and again after the app restarts on the same database (the verdict is stored).

/** A path parameter for each route's segment (any value: the 403 comes before the input is read). */
const SAMPLE: Record<string, string> = { "[id]": "D0001", "[last4]": "1234" };

const urlOf = (route: string) =>
  pathOf(route)
    .split("/")
    .map((segment) => SAMPLE[segment] ?? segment)
    .join("/");

describe.each(["primary", "alternative"] as const)("a key without the transactions scope over HTTP (%s)", (profile) => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  let dir: string;
  const recorded: Recorded[] = [];
  const env = () => mirrorAppEnv(upstream.baseUrl, dir);

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    dir = mkdtempSync(join(tmpdir(), "ffd-bff-scope-"));
    app = await startApp(env());
  }, 240_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const signedIn = async (label: "demo-full" | "demo-no-transactions") => {
    const b = new TestBrowser(app.origin, recorded);
    const pair = upstream.keys[label];
    expect((await b.login(pair.keyId, pair.secret)).status).toBe(200);
    return b;
  };
  const expectAllRefused = async (b: TestBrowser, routes: string[]) => {
    const answers = [];
    for (const route of routes) {
      const res = await b.fetch(urlOf(route));
      answers.push({ route, status: res.status, code: errorCodeOf(res.body) });
    }
    expect(answers).toEqual(routes.map((route) => ({ route, status: 403, code: "scope_denied" })));
  };

  it("answers 403 on every transactions-derived route while the other key's copy loads, and after a restart", async () => {
    const routes = (await operationTable())
      .filter((op) => TRANSACTIONS_DERIVED.some((re) => re.test(pathOf(op.route))))
      .map((op) => op.route);
    expect(routes.length).toBe(18);
    expect(routes.every((r) => r.startsWith("GET "))).toBe(true);

    const full = await signedIn("demo-full");
    // The full key's local copy has its head: it would serve any session the gate let through.
    for (;;) {
      const status = (await full.fetch("/api/sync")).body as SyncStatusReply;
      if (status.lastHeadSync !== null) break;
      await new Promise((r) => setTimeout(r, 150));
    }
    const partial = await signedIn("demo-no-transactions");
    await expectAllRefused(partial, routes);
    // The mirror-only filters and the list's plain form alike.
    const filtered = await partial.fetch("/api/transactions?from=2026-04-01&driver=D0001");
    expect({ status: filtered.status, code: errorCodeOf(filtered.body) }).toEqual({
      status: 403,
      code: "scope_denied",
    });
    expect(((await partial.fetch("/api/sync")).body as SyncStatusReply).state).toBe("off");
    // The full key still reads its copy.
    expect((await full.fetch("/api/drivers")).status).toBe(200);

    // A restart on the same database and session store: the stored verdict still refuses the key.
    await app.stop();
    app = await startApp(env());
    const again = new TestBrowser(app.origin, recorded);
    again.cookie = partial.cookie;
    await expectAllRefused(again, routes);
  });

  it("never leaks a key secret into a response or the log", () => {
    const everything = recorded.map((r) => `${r.headers}\n${r.body}`).join("\n") + app.output();
    for (const pair of Object.values(upstream.keys)) expect(everything).not.toContain(pair.secret);
  });
});
