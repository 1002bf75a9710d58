import { describe, expect, it } from "vitest";

import { NO_FAULTS, PROFILES } from "./config";
import { schemasFor } from "./routes/schemas";
import { client, creds, errorCode, startTestSandbox } from "./test/harness";

// The run-time controls a sandbox started with `control` serves under /sandbox (faults, clock, data, served requests).
describe.each(PROFILES)("/sandbox/faults, the run-time fault control (%s profile)", (profile) => {
  it("is not served unless the sandbox was started with control on", async () => {
    const plain = await startTestSandbox({ profile });
    try {
      const res = await fetch(`${plain.origin}/sandbox/faults`, {
        method: "PUT",
        body: JSON.stringify({ rateLimitSeconds: 5 }),
      });
      expect(res.status).toBe(404);
      const api = client(plain.baseUrl);
      expect((await api.get("/account-details", await api.token())).status).toBe(200);
    } finally {
      await plain.close();
    }
  });

  it("replaces the faults of a running sandbox, rate limiting included, and DELETE restores the start-up ones", async () => {
    const sb = await startTestSandbox({ profile, control: true, faults: { ...NO_FAULTS, headers: true } });
    try {
      const api = client(sb.baseUrl);
      const token = await api.token();
      const put = await fetch(`${sb.origin}/sandbox/faults`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ rateLimitSeconds: 42 }),
      });
      expect(put.status).toBe(200);
      expect(await put.json()).toEqual({ ...NO_FAULTS, headers: true, rateLimitSeconds: 42 });
      const limited = await api.get("/account-details", token);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("42");
      expect(errorCode(limited.body)).toBe("rate_limited");
      schemasFor(profile).ErrorBody.parse(limited.body);

      await fetch(`${sb.origin}/sandbox/faults`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ errorRate: 1 }),
      });
      expect((await api.get("/account-details", token)).status).toBe(500);

      const reset = await fetch(`${sb.origin}/sandbox/faults`, { method: "DELETE" });
      expect(await reset.json()).toEqual({ ...NO_FAULTS, headers: true });
      expect((await api.get("/account-details", token)).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it("refuses a malformed or out-of-range body with 400 and keeps the faults in force", async () => {
    const sb = await startTestSandbox({ profile, control: true });
    try {
      for (const body of [
        "not json",
        JSON.stringify({ latencyMs: -1 }),
        JSON.stringify({ errorRate: 2 }),
        JSON.stringify({ explode: true }),
        JSON.stringify([1]),
      ]) {
        const res = await fetch(`${sb.origin}/sandbox/faults`, {
          method: "PUT",
          headers: { "Content-Type": "application/json" },
          body,
        });
        expect(res.status, body).toBe(400);
        expect(((await res.json()) as { error: string }).error).toMatch(/\w/);
      }
      expect(await (await fetch(`${sb.origin}/sandbox/faults`)).json()).toEqual(NO_FAULTS);
    } finally {
      await sb.close();
    }
  });
});

describe.each(PROFILES)("/sandbox/clock, the run-time clock control (%s profile)", (profile) => {
  it("runs the sandbox's clock ahead (tokens count down by it), only forward, and only with control on", async () => {
    const sb = await startTestSandbox({ profile, control: true });
    try {
      const api = client(sb.baseUrl);
      const { keyId, secret } = creds("demo-full");
      const first = await api.auth(keyId, secret);
      const put = (offsetMs: number) =>
        fetch(`${sb.origin}/sandbox/clock`, {
          method: "PUT",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ offsetMs }),
        });
      expect((await put(3_540_000)).status).toBe(200);
      expect(await (await fetch(`${sb.origin}/sandbox/clock`)).json()).toEqual({ offsetMs: 3_540_000 });
      const inLastMinute = await api.auth(keyId, secret);
      expect(inLastMinute.body.access_token).toBe(first.body.access_token);
      expect(inLastMinute.body.expires_in).toBe(60);
      expect((await put(1_000)).status).toBe(400); // never backwards
      expect((await put(3_600_000)).status).toBe(200);
      expect((await api.auth(keyId, secret)).body.access_token).not.toBe(first.body.access_token);
    } finally {
      await sb.close();
    }
    const plain = await startTestSandbox({ profile });
    try {
      expect(
        (
          await fetch(`${plain.origin}/sandbox/clock`, {
            method: "PUT",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ offsetMs: 1 }),
          })
        ).status,
      ).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe.each(PROFILES)(
  "/sandbox/transactions and /sandbox/requests, the run-time data control (%s profile)",
  (profile) => {
    const send = (sb: { origin: string }, method: string, path: string, body?: string) =>
      fetch(`${sb.origin}/sandbox${path}`, {
        method,
        headers: { "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body }),
      });

    it("inserts, changes a status and deletes at run time, and the API shows each change; requests are listed with their times", async () => {
      const sb = await startTestSandbox({ profile, control: true });
      try {
        const api = client(sb.baseUrl);
        const token = await api.token();
        const total = async () => (await api.get("/transactions?limit=1", token)).body;
        const before = await total();
        const inserted = await send(sb, "POST", "/transactions", JSON.stringify({ customer: "PFL", count: 2 }));
        expect(inserted.status).toBe(201);
        const { ids } = (await inserted.json()) as { ids: string[] };
        expect(ids).toHaveLength(2);
        const id = ids[0] ?? "";
        const detail = await api.get(`/transactions/${id}`, token);
        expect(detail.status).toBe(200);
        expect(JSON.stringify(detail.body)).toContain("pending");
        expect((await send(sb, "PATCH", `/transactions/${id}`, JSON.stringify({ status: "failed" }))).status).toBe(200);
        expect(JSON.stringify((await api.get(`/transactions/${id}`, token)).body)).toContain("failed");
        expect((await send(sb, "DELETE", `/transactions/${id}`)).status).toBe(200);
        expect((await api.get(`/transactions/${id}`, token)).status).toBe(404);
        expect(JSON.stringify(await total())).not.toEqual(JSON.stringify(before));
        const served = (await (await fetch(`${sb.origin}/sandbox/requests`)).json()) as {
          requests: { atMs: number; method: string; path: string; status: number }[];
        };
        expect(served.requests.some((r) => r.path.endsWith(`/transactions/${id}`) && r.status === 404)).toBe(true);
        expect(served.requests.every((r) => r.path.startsWith("/api/v1") && Number.isInteger(r.atMs))).toBe(true);
      } finally {
        await sb.close();
      }
    });

    it("answers bad input with a 4xx naming the problem, and is not served without control", async () => {
      const sb = await startTestSandbox({ profile, control: true });
      const plain = await startTestSandbox({ profile });
      try {
        for (const body of [
          "not json",
          JSON.stringify({ customer: "PFL", count: 0 }),
          JSON.stringify({ count: 1 }),
          JSON.stringify({ customer: "PFL", explode: true }),
        ]) {
          const res = await send(sb, "POST", "/transactions", body);
          expect(res.status, body).toBe(400);
          expect(((await res.json()) as { error: string }).error).toMatch(/\w/);
        }
        expect((await send(sb, "POST", "/transactions", JSON.stringify({ customer: "NOPE" }))).status).toBe(404);
        expect((await send(sb, "PATCH", "/transactions/nope", JSON.stringify({ status: "failed" }))).status).toBe(404);
        expect((await send(sb, "PATCH", "/transactions/nope", JSON.stringify({ status: "lost" }))).status).toBe(400);
        expect((await send(sb, "DELETE", "/transactions/nope")).status).toBe(404);
        expect((await send(plain, "POST", "/transactions", JSON.stringify({ customer: "PFL" }))).status).toBe(404);
      } finally {
        await sb.close();
        await plain.close();
      }
    });
  },
);
