import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PROFILES } from "./config";
import { schemasFor } from "./routes/schemas";
import { client, decimalUnits, startTestSandbox, type TestSandbox } from "./test/harness";

describe.each(PROFILES)("GET /account-details (%s profile)", (profile) => {
  let sb: TestSandbox;
  let api: ReturnType<typeof client>;
  const schemas = schemasFor(profile);

  beforeAll(async () => {
    sb = await startTestSandbox({ profile, budget: 100_000 });
    api = client(sb.baseUrl);
  });
  afterAll(() => sb.close());

  it("returns the profile's account shape for each customer", async () => {
    for (const [label, code, name] of [
      ["demo-full", "PFL", "Prairie Freight Lines"],
      ["other-full", "CHI", "Coastal Haulers Inc."],
    ] as const) {
      const res = await api.get("/account-details", await api.token(label));
      expect(res.status).toBe(200);
      const body = schemas.Account.parse(res.body);
      if (profile === "primary") {
        expect(body).toMatchObject({ ok: true, customer: { code, name, active: true } });
        expect(res.text).not.toContain("fee_deduction");
      } else {
        expect(body).toMatchObject({ name, is_active: true });
        expect(res.body.fee_deduction_per_gallon).toBeGreaterThan(0);
        expect(res.body).not.toHaveProperty("customer");
      }
    }
  });

  if (profile === "primary") {
    it("totals_30d equal the exact sums of the last 30 days' completed and pending transactions", async () => {
      const token = await api.token();
      const res = await api.get("/account-details", token);
      const totals = res.body.totals_30d as { transactions: number; gallons: string; amount: string };
      // Independent walk through the list endpoint over the same rolling window.
      const nowSec = Math.floor(sb.clock.now() / 1000);
      const cutoff = nowSec - 30 * 86_400;
      let count = 0;
      let gallons = 0n;
      let amount = 0n;
      for (let page = 1; ; page++) {
        const from = new Date(cutoff * 1000).toISOString().slice(0, 10);
        const list = await api.get(`/transactions?limit=200&page=${String(page)}&from=${from}`, token);
        const data = list.body.data as {
          pages: number;
          items: { transaction_at: string; status: string; gallons: number; amount: number }[];
        };
        for (const item of data.items) {
          const at = Date.parse(item.transaction_at) / 1000;
          if (at < cutoff || at > nowSec || item.status === "failed") continue;
          count++;
          gallons += decimalUnits(item.gallons, 3);
          amount += decimalUnits(item.amount, 2);
        }
        if (page >= data.pages) break;
      }
      expect(count).toBeGreaterThan(0);
      expect(totals.transactions).toBe(count);
      expect(decimalUnits(totals.gallons, 3)).toBe(gallons);
      expect(decimalUnits(totals.amount, 2)).toBe(amount);
      expect(totals.gallons).toMatch(/^\d+\.\d{3}$/);
      expect(totals.amount).toMatch(/^\d+\.\d{2}$/);
    });

    it("the window rolls with the clock: 90 days later nothing is left in it", async () => {
      sb.clock.advance(90 * 86_400_000);
      const res = await api.get("/account-details", await api.token());
      expect(res.body.totals_30d).toEqual({ transactions: 0, gallons: "0.000", amount: "0.00" });
    });
  }
});
