import { once } from "node:events";
import { type ClientRequest, get, type IncomingMessage } from "node:http";

import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { EXCEPTION_CASE_ROWS } from "@/sandbox/db/seed-exceptions";
import { type AppProcess, startApp } from "@/test/app-process";
import { isListCall, SESSION_SECRET, upstreamRequests } from "@/test/bff-stack";
import { TestBrowser } from "@/test/browser";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// Large exports through the BFF over real HTTP: every row exactly once, formula injection neutralised, the walk
// stopped when the browser goes away or stops reading. Each describe block starts a sandbox of its own size.

/** The demo customer's rows: the generated 25,000 and the seeded exception cases (sandbox/db/seed-exceptions). */
const ROWS = 25_000 + EXCEPTION_CASE_ROWS;

describe("exports of 25,000 rows", () => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  beforeAll(async () => {
    upstream = await startSandboxProcess({
      log: true,
      args: ["--budget", "100000", "--reset", "--transactions", "25000", "--fault-latency", "20"],
    });
    app = await startApp({ FLEET_API_BASE_URL: upstream.baseUrl, SESSION_SECRET, FLEET_API_BUDGET: "100000" });
  }, 240_000);
  afterAll(async () => {
    // Both guarded: when a start failed, the other process must still be stopped.
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  it("GET /api/transactions/totals does not walk a set of more than 5,000 rows: one request tells the count", async () => {
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const before = upstreamRequests(upstream).filter(isListCall).length;
    const all = await b.fetch("/api/transactions/totals");
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ state: "too_many", transactions: ROWS, maxRows: 5_000 });
    expect(upstreamRequests(upstream).filter(isListCall).length - before).toBe(1);
  }, 60_000);

  it("equal the sandbox's rows exactly: count, ids, order, no duplicates", async () => {
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const res = await b.fetch("/api/transactions/export?format=csv");
    expect(res.status).toBe(200);
    const lines = res.text
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter((l) => l !== "");
    const ids = lines.slice(1).map((l) => l.split(",").at(-1) ?? "");
    const db = new Database(upstream.dbPath, { readonly: true });
    const expected = db
      .prepare(
        "SELECT t.id FROM transactions t JOIN customers c ON c.pk = t.customer_pk WHERE c.code = 'PFL' ORDER BY t.at_utc DESC, t.pk DESC",
      )
      .pluck()
      .all() as string[];
    db.close();
    expect(expected).toHaveLength(ROWS);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected);
  }, 120_000);

  it("neutralises formula injection in cells", async () => {
    const db = new Database(upstream.dbPath);
    db.prepare(
      'UPDATE drivers SET name = \'=HYPERLINK("http://evil.example","x")\' WHERE pk = (SELECT MIN(pk) FROM drivers)',
    ).run();
    db.close();
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const res = await b.fetch(`/api/transactions/export?format=csv&search=${encodeURIComponent("HYPERLINK")}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(res.text).not.toMatch(/(^|,)=HYPERLINK/m);
  }, 60_000);

  it("stops calling the upstream when the browser goes away", async () => {
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const pages = () => upstreamRequests(upstream).filter(isListCall).length;
    const before = pages();
    const controller = new AbortController();
    const exportId = "abort-test-0001";
    const { res } = await b.fetch(`/api/transactions/export?format=csv&exportId=${exportId}`, {
      raw: true,
      signal: controller.signal,
    });
    const reader = res.body?.getReader();
    await reader?.read();
    controller.abort();
    await new Promise((r) => setTimeout(r, 1000));
    const afterAbort = pages();
    await new Promise((r) => setTimeout(r, 1500));
    expect(pages()).toBe(afterAbort);
    expect(afterAbort - before).toBeGreaterThan(0); // it had started
    expect(afterAbort - before).toBeLessThan(125); // and stopped well before the 125 pages of the whole set
    const progress = await b.fetch(`/api/transactions/export/progress?exportId=${exportId}`);
    expect(progress.body).toMatchObject({ state: "cancelled" });
    expect((progress.body as { rowsDone: number }).rowsDone).toBeLessThan(25_000);
  }, 60_000);
});

describe("an export of 100,000 rows the browser stops reading", () => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  beforeAll(async () => {
    upstream = await startSandboxProcess({
      log: true,
      args: ["--budget", "100000", "--reset", "--transactions", "100000"],
    });
    app = await startApp({ FLEET_API_BASE_URL: upstream.baseUrl, SESSION_SECRET, FLEET_API_BUDGET: "100000" });
    // A bound for a hang: seeding 100,000 rows is CPU work, and in .ci/run the journeys share the cores.
  }, 600_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  it("stops walking the upstream while the browser does not read, then delivers every row once it does", async () => {
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const pages = () => upstreamRequests(upstream).filter(isListCall).length;
    const before = pages();
    // node:http, so that not reading is really not reading: a paused response leaves the bytes in the socket,
    // and only back-pressure from there through Next's response to the walk keeps the app from walking on.
    const request = get(`${app.origin}/api/transactions/export?format=csv`, { headers: { Cookie: b.cookie ?? "" } });
    try {
      await stallThenRead(request, pages, before);
    } finally {
      request.destroy(); // a failed expectation must not leave the export open (the app would not stop)
    }
  }, 120_000);
});

/** The body of the test above: pause, wait for the walk to stop, check where; then read everything. */
async function stallThenRead(request: ClientRequest, pages: () => number, before: number): Promise<void> {
  const [response] = (await once(request, "response")) as [IncomingMessage];
  expect(response.statusCode).toBe(200);
  response.pause();
  // Wait until the page count has not moved for 2 s (at most 30 s): with back-pressure broken, the walk would go
  // on to the 500th page at this unlimited budget.
  let stalledAt = pages();
  for (let quiet = 0, waited = 0; quiet < 4 && waited < 60; waited++) {
    await new Promise((r) => setTimeout(r, 500));
    const now = pages();
    quiet = now === stalledAt ? quiet + 1 : 0;
    stalledAt = now;
  }
  const walked = stalledAt - before;
  expect(walked).toBeGreaterThan(0);
  // What the socket and the streams can hold (a few MB of CSV, ~200 bytes a row) is well under half the file.
  expect(walked).toBeLessThan(250);

  response.setEncoding("utf8");
  let text = "";
  response.on("data", (chunk: string) => (text += chunk));
  response.resume();
  await once(response, "end");
  const ids = text
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter((l) => l !== "")
    .slice(1)
    .map((l) => l.split(",").at(-1) ?? "");
  const rows = 100_000 + EXCEPTION_CASE_ROWS;
  expect(ids).toHaveLength(rows);
  expect(new Set(ids).size).toBe(rows);
  expect(pages() - before).toBe(Math.ceil(rows / 200)); // one request per page of 200, nothing fetched twice
}
