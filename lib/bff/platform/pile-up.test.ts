import { once } from "node:events";
import { get, type IncomingMessage } from "node:http";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppProcess, startApp } from "@/test/app-process";
import { errorCodeOf, errorMessageOf, TestBrowser } from "@/test/browser";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// Issue 12, items 4 and 5, over real HTTP: `next start` of the built app against the sandbox as a separate process.
// The app keeps a budget of ONE upstream request per 2 s per key, so requests really wait in the budget queue: that
// is where a cancelled request must leave without spending a call, and what keeps exports and summaries running
// long enough to pile up. Interactive requests always go before bulk ones (exports, summaries), so two interactive
// "fillers" started first guarantee that a bulk request waits for at least one window.

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
const WINDOW_SECONDS = 2;

/** Upstream transaction list requests the sandbox logged (it logs paths without their query). */
const listCalls = (sb: SandboxProcess) =>
  [...sb.output().matchAll(/\[sandbox\] GET \/api\/v1\/transactions (\d{3})/g)].length;
/** The app's "export ended" log lines written after `from` (a length of its output). */
const exportEndings = (app: AppProcess, from: number) =>
  app
    .output()
    .slice(from)
    .split("\n")
    .filter((line) => line.includes('"msg":"export ended"'))
    .map((line) => JSON.parse(line) as { outcome: string; reason?: string; rows: number });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (at most `seconds`) until `check` holds; the test then asserts on what it found either way. */
async function waitUntil(check: () => boolean | Promise<boolean>, seconds = 30): Promise<void> {
  for (let i = 0; i < seconds * 5 && !(await check()); i++) await sleep(200);
}

interface Started {
  controller: AbortController;
  /** Settles with the status when the headers arrive (the body is left unread). */
  response: Promise<{ status: number; body: unknown; res: Response }>;
}

/** Sends a GET without reading its body (unless it is an error), abortable. */
function send(b: TestBrowser, path: string): Started {
  const controller = new AbortController();
  const response = b.fetch(path, { raw: true, signal: controller.signal }).then(async ({ res, status }) => ({
    status,
    res,
    body: status >= 400 ? ((await res.json()) as unknown) : undefined,
  }));
  // A request the test aborts rejects; the tests look at the ones they need.
  response.catch(() => undefined);
  return { controller, response };
}

// One profile (alternative; lib/bff/platform/cluster.test.ts runs in the other): the budget queue, single flight and
// cancellation are the BFF's own, the same whatever shape the upstream answers in (issue 26: the suite stays fast).
describe.each(["alternative"] as const)("exports and summaries that pile up, single flight (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  const loggedIn = async (label: "demo-full" | "other-full" = "demo-full") => {
    const b = new TestBrowser(app.origin);
    const res = await b.login(upstream.keys[label].keyId, upstream.keys[label].secret);
    expect(res.status).toBe(200);
    return b;
  };
  /** Two interactive requests nobody asked for before (page `n` and `n + 1` of 3 rows), queued ahead of anything bulk. */
  const fillers = (b: TestBrowser, n: number) => [
    b.fetch(`/api/transactions?limit=3&page=${String(n)}`),
    b.fetch(`/api/transactions?limit=3&page=${String(n + 1)}`),
  ];

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, log: true, args: ["--budget", "100000"] });
    app = await startApp({
      FLEET_API_BASE_URL: upstream.baseUrl,
      SESSION_SECRET,
      FLEET_API_BUDGET: "1",
      FLEET_API_WINDOW_SECONDS: String(WINDOW_SECONDS),
    });
  }, 240_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  it("single flight: when the first of two identical requests is cancelled, the second still gets the data from the one upstream call", async () => {
    const b = await loggedIn();
    const before = listCalls(upstream);
    const ahead = fillers(b, 101);
    const path = "/api/transactions?limit=7&page=3";
    const first = send(b, path);
    await sleep(300);
    const second = b.fetch(path);
    await sleep(300);
    first.controller.abort(); // while the shared load still waits for the budget
    await expect(first.response).rejects.toThrow();
    const res = await second;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body as { items: unknown[] }).items).toHaveLength(7);
    await Promise.all(ahead);
    expect(listCalls(upstream) - before).toBe(3); // the two fillers and the one shared load
  }, 60_000);

  it("an export cancelled before its first page spends no upstream call, and is logged cancelled", async () => {
    const b = await loggedIn();
    const before = listCalls(upstream);
    const logFrom = app.output().length;
    const ahead = fillers(b, 201);
    const cancelled = send(b, "/api/transactions/export?format=csv&exportId=cancelled-early");
    await sleep(300);
    cancelled.controller.abort(); // it waits behind the interactive fillers for the budget
    await expect(cancelled.response).rejects.toThrow();
    await Promise.all(ahead);
    // A later bulk request queues behind where the cancelled one would be: once it is answered, the cancelled one
    // would have been sent too.
    const later = await b.fetch("/api/transactions/export?format=csv&status=failed&search=no-such-driver");
    expect(later.status).toBe(200);
    expect(listCalls(upstream) - before).toBe(3); // the two fillers and the later export's one page
    await waitUntil(() => exportEndings(app, logFrom).length >= 2);
    const endings = exportEndings(app, logFrom);
    expect(endings.filter((e) => e.outcome === "cancelled")).toHaveLength(1);
    expect(endings.filter((e) => e.outcome === "failed")).toHaveLength(0);
  }, 60_000);

  it("a summary cancelled while it waits spends no upstream call", async () => {
    const b = await loggedIn();
    const before = listCalls(upstream);
    const ahead = fillers(b, 301);
    const cancelled = send(b, "/api/transactions/summary?from=2026-03-01&to=2026-04-30");
    await sleep(300);
    cancelled.controller.abort();
    await expect(cancelled.response).rejects.toThrow();
    await Promise.all(ahead);
    const later = await b.fetch("/api/transactions/export?format=csv&status=failed&search=no-such-driver");
    expect(later.status).toBe(200);
    expect(listCalls(upstream) - before).toBe(3);
  }, 60_000);

  it("a browser that goes away during an export is logged cancelled, not failed, and the walk stops", async () => {
    const b = await loggedIn();
    const logFrom = app.output().length;
    const { controller, response } = send(b, "/api/transactions/export?format=csv&exportId=goes-away");
    const { res } = await response;
    expect(res.status).toBe(200);
    await res.body?.getReader().read(); // the first rows arrived; the walk goes on at one page per window
    controller.abort();
    await waitUntil(() => exportEndings(app, logFrom).length > 0);
    expect(exportEndings(app, logFrom).map((e) => e.outcome)).toEqual(["cancelled"]);
    const progress = await b.fetch("/api/transactions/export/progress?exportId=goes-away");
    expect(progress.body).toMatchObject({ state: "cancelled" });
    const stoppedAt = listCalls(upstream);
    await b.fetch("/api/transactions/export?format=csv&status=failed&search=no-such-driver"); // a window later at least
    expect(listCalls(upstream) - stoppedAt).toBe(1);
  }, 60_000);

  it("refuses a session's 4th running export with a 429 saying so, and frees the slots when the exports end", async () => {
    const b = await loggedIn();
    const before = listCalls(upstream);
    const exports = [1, 2, 3, 4].map((i) =>
      send(b, `/api/transactions/export?format=csv&exportId=four-of-${String(i)}`),
    );
    const answers = await Promise.all(exports.map((e) => e.response));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429]);
    const refused = answers.find((a) => a.status === 429);
    expect(errorCodeOf(refused?.body)).toBe("too_many_running");
    expect(errorMessageOf(refused?.body)).toMatch(/You already have 3 exports running/);
    expect(Number(refused?.res.headers.get("retry-after"))).toBeGreaterThan(0);
    // The refused one spent nothing: three first pages (plus next pages of the three that run).
    expect(listCalls(upstream) - before).toBeGreaterThanOrEqual(3);
    for (const e of exports) e.controller.abort();
    // Once the browsers have gone, the session may export again.
    let again = 0;
    await waitUntil(async () => {
      again = (await b.fetch("/api/transactions/export?format=csv&status=failed&search=no-such-driver")).status;
      return again === 200;
    });
    expect(again).toBe(200);
  }, 90_000);

  it("refuses a key's 6th running export (5 across its sessions) with a 429 naming the key", async () => {
    const one = await loggedIn("other-full");
    const two = await loggedIn("other-full");
    const exports = [one, one, one, two, two, two].map((b, i) =>
      send(b, `/api/transactions/export?format=csv&exportId=per-key-${String(i)}`),
    );
    const answers = await Promise.all(exports.map((e) => e.response));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = answers.find((a) => a.status === 429);
    expect(errorCodeOf(refused?.body)).toBe("too_many_running");
    expect(errorMessageOf(refused?.body)).toMatch(/This API key already has 5 exports running/);
    for (const e of exports) e.controller.abort();
  }, 90_000);

  it("refuses a session's 3rd concurrent summary walk, and a key's 5th, with a 429", async () => {
    const b = await loggedIn();
    const mine = ["05-01", "05-02", "05-03"].map((day) =>
      send(b, `/api/transactions/summary?from=2026-${day}&to=2026-${day}`),
    );
    const answers = await Promise.all(mine.map((s) => s.response));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429]);
    const refused = answers.find((a) => a.status === 429);
    expect(errorCodeOf(refused?.body)).toBe("too_many_running");
    expect(errorMessageOf(refused?.body)).toMatch(/2 summaries are already being worked out for you/);

    const sessions = [await loggedIn("other-full"), await loggedIn("other-full"), await loggedIn("other-full")];
    const days = ["05-11", "05-12", "05-13", "05-14", "05-15"];
    const theirs = days.map((day, i) =>
      send(sessions[Math.floor(i / 2)] ?? b, `/api/transactions/summary?from=2026-${day}&to=2026-${day}`),
    );
    const keyAnswers = await Promise.all(theirs.map((s) => s.response));
    expect(keyAnswers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 429]);
    expect(errorMessageOf(keyAnswers.find((a) => a.status === 429)?.body)).toMatch(
      /already being worked out for this API key/,
    );
  }, 90_000);

  it("HEAD of an export or a summary runs nothing: 405, no upstream call", async () => {
    const b = await loggedIn();
    const before = listCalls(upstream);
    for (const path of [
      "/api/transactions/export?format=csv&exportId=head-only",
      "/api/transactions/summary?from=2026-02-01&to=2026-02-02",
      "/api/reports/jurisdictions/export?format=xlsx&quarter=2026-Q1",
    ]) {
      const res = await b.fetch(path, { method: "HEAD", raw: true });
      expect(res.status, path).toBe(405);
      expect(res.res.headers.get("allow")).toBe("GET");
    }
    expect((await b.fetch("/api/transactions/export/progress?exportId=head-only")).status).toBe(404);
    // A bulk request after them: had either HEAD started a walk, its first page would have gone before this one's.
    await b.fetch("/api/transactions/export?format=csv&status=failed&search=no-such-driver");
    expect(listCalls(upstream) - before).toBe(1);
  }, 60_000);
});

describe("an export download nobody reads from", () => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  beforeAll(async () => {
    // Enough rows that the socket's buffers fill and the download really stalls (see bff-large-exports.test.ts, 100,000 rows).
    // Primary profile only: what is tested is the BFF's stream, the same whatever the upstream's shape.
    upstream = await startSandboxProcess({
      log: true,
      args: ["--budget", "100000", "--reset", "--transactions", "100000"],
    });
    app = await startApp({
      FLEET_API_BASE_URL: upstream.baseUrl,
      SESSION_SECRET,
      FLEET_API_BUDGET: "100000",
      EXPORT_IDLE_SECONDS: "2",
    });
  }, 240_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  // The connection itself stays open until the browser reads again (then it gets an error, never a short file) or
  // leaves: a route handler cannot close its socket, only stop producing. What matters is gone: the walk, the slot.
  it("is cancelled after EXPORT_IDLE_SECONDS: the walk stops, the progress and the log say cancelled (idle)", async () => {
    const b = new TestBrowser(app.origin);
    expect((await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret)).status).toBe(200);
    const logFrom = app.output().length;
    // node:http, so that not reading is really not reading (the bytes stay in the socket).
    const request = get(`${app.origin}/api/transactions/export?format=csv&exportId=never-read`, {
      headers: { Cookie: b.cookie ?? "" },
    });
    try {
      const [response] = (await once(request, "response")) as [IncomingMessage];
      expect(response.statusCode).toBe(200);
      response.pause();
      await waitUntil(
        async () =>
          ((await b.fetch("/api/transactions/export/progress?exportId=never-read")).body as { state?: string })
            .state !== "running",
        60,
      );
      const progress = await b.fetch("/api/transactions/export/progress?exportId=never-read");
      expect(progress.body).toMatchObject({
        state: "cancelled",
        message: expect.stringMatching(/not read for 2 s/) as unknown,
      });
      expect((progress.body as { rowsDone: number }).rowsDone).toBeLessThan(100_000);
      expect(exportEndings(app, logFrom)).toMatchObject([{ outcome: "cancelled", reason: "idle" }]);
      const stoppedAt = listCalls(upstream);
      await b.fetch("/api/transactions/export?format=csv&status=failed&search=no-such-driver");
      expect(listCalls(upstream) - stoppedAt).toBe(1); // only that small export's page: the idle one walks no more
    } finally {
      request.destroy();
    }
  }, 120_000);
});
