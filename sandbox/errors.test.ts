import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { NO_FAULTS, PROFILES } from "./config";
import { parseFaultHeader } from "./http/faults";
import { schemasFor } from "./routes/schemas";
import { client, errorCode, startTestSandbox, type TestSandbox } from "./test/harness";

describe.each(PROFILES)("errors and faults (%s profile)", (profile) => {
  let sb: TestSandbox;
  let api: ReturnType<typeof client>;
  let token: string;
  const schemas = schemasFor(profile);

  beforeAll(async () => {
    sb = await startTestSandbox({ profile, budget: 100_000, faults: { ...NO_FAULTS, headers: true } });
    api = client(sb.baseUrl);
    token = await api.token();
  });
  afterAll(() => sb.close());

  it("answers unknown endpoints and methods with a JSON 404 in the profile's error shape", async () => {
    for (const [path, method] of [
      ["/nope", "GET"],
      ["/transactions", "DELETE"],
      ["/auth", "GET"],
    ] as const) {
      const res = await api.call(path, { method, headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      schemas.ErrorBody.parse(res.body);
      expect(errorCode(res.body)).toBe("not_found");
    }
  });

  it("GET /healthz answers 200 when ready", async () => {
    const res = await fetch(`${sb.origin}/healthz`);
    expect(res.status).toBe(200);
  });

  it("injects a 5xx on request, as JSON server_error", async () => {
    for (const status of [500, 502, 503, 504]) {
      const res = await api.get("/account-details", token, { "X-Sandbox-Fault": `status=${String(status)}` });
      expect(res.status).toBe(status);
      expect(errorCode(res.body)).toBe("server_error");
      expect(res.text).not.toMatch(/at .*\.ts:\d+/); // never a stack trace
    }
  });

  it("injects malformed JSON", async () => {
    const res = await api.get("/account-details", token, { "X-Sandbox-Fault": "malformed" });
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.text) as unknown).toThrow();
  });

  it("injects latency", async () => {
    const started = performance.now();
    const res = await api.get("/account-details", token, { "X-Sandbox-Fault": "latency=300" });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("cuts the connection on request", async () => {
    await expect(
      fetch(`${sb.baseUrl}/account-details`, {
        headers: { Authorization: `Bearer ${token}`, "X-Sandbox-Fault": "drop" },
      }),
    ).rejects.toThrow();
  });

  it("ignores the fault header unless faults are enabled", async () => {
    const plain = await startTestSandbox({ profile });
    try {
      const plainApi = client(plain.baseUrl);
      const res = await plainApi.get("/account-details", await plainApi.token(), { "X-Sandbox-Fault": "status=500" });
      expect(res.status).toBe(200);
    } finally {
      await plain.close();
    }
  });

  it("fault rates apply to a fraction of requests", async () => {
    let roll = 0;
    const flaky = await startTestSandbox({
      profile,
      budget: 100_000,
      random: () => (roll++ % 4) / 4,
      faults: { ...NO_FAULTS, errorRate: 0.5 },
    });
    try {
      const flakyApi = client(flaky.baseUrl);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await flakyApi.call("/account-details")).status);
      expect(statuses.filter((s) => s === 500)).toHaveLength(4);
    } finally {
      await flaky.close();
    }
  });
});

describe("an unexpected failure inside the sandbox", () => {
  it("is a JSON 500 server_error without details, logged on the server only", async () => {
    const sb = await startTestSandbox();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const api = client(sb.baseUrl);
      const token = await api.token();
      sb.db.exec("DROP TABLE tx_day_counts"); // a real fault: the query behind the list now fails
      const res = await api.get("/transactions", token);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ ok: false, error: "server_error", message: expect.any(String) as unknown });
      expect(res.text).not.toMatch(/tx_day_counts|SqliteError|at .*:\d+/);
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
      await sb.close();
    }
  });
});

describe("parseFaultHeader", () => {
  it("reads each fault and ignores unknown or unsafe values", () => {
    expect(parseFaultHeader("latency=250, status=503")).toEqual({ latencyMs: 250, status: 503 });
    expect(parseFaultHeader("drop,malformed")).toEqual({ drop: true, malformed: true });
    expect(parseFaultHeader("status=200,latency=abc,explode")).toEqual({});
    expect(parseFaultHeader(undefined)).toEqual({});
  });
});
