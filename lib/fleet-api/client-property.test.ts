import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { startFaultServer } from "@/test/fault-server";
import { VirtualClock } from "@/test/virtual-clock";

import { RequestBudget } from "./budget";
import { MemoryBudgetStore } from "./budget-store";
import { FleetApiClient } from "./client";
import { ACCOUNT, KEYS, TOKEN } from "./fixtures/fault-client";

/** The memory store, recording when it granted each slot (the moment a request may be sent). */
class RecordingStore extends MemoryBudgetStore {
  readonly grants: number[] = [];
  override async tryAcquire(
    key: string,
    nowMs: number,
    budget: number,
    windowMs: number,
  ): ReturnType<MemoryBudgetStore["tryAcquire"]> {
    const result = await super.tryAcquire(key, nowMs, budget, windowMs);
    if (result.granted) this.grants.push(nowMs);
    return result;
  }
}

describe("FleetApiClient, any interleaving of callers (property)", () => {
  it("N concurrent callers with no token cause one POST /auth, and sends stay within the budget in every window", async () => {
    const server = await startFaultServer();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              priority: fc.constantFrom("interactive" as const, "bulk" as const),
              delayMs: fc.integer({ min: 0, max: 90_000 }),
            }),
            { minLength: 1, maxLength: 40 },
          ),
          fc.integer({ min: 2, max: 12 }),
          async (callers, budgetSize) => {
            server.requests.length = 0;
            server.fallback("POST /auth", () => TOKEN);
            server.fallback("GET /account-details", () => ACCOUNT);
            const clock = new VirtualClock();
            const store = new RecordingStore();
            const c = new FleetApiClient({
              baseUrl: server.baseUrl,
              clock,
              budget: new RequestBudget({ clock, budget: budgetSize, windowMs: 60_000, store }),
            });
            const start = clock.now();
            await Promise.all(
              callers.map(async ({ priority, delayMs }) => {
                await clock.sleep(delayMs);
                await c.getAccount(KEYS, { priority });
              }),
            );
            expect(server.requests.filter((r) => r.path === "/auth")).toHaveLength(1);
            expect(server.requests.filter((r) => r.path === "/account-details")).toHaveLength(callers.length);
            // Every send took a budget slot, and any budget+1 consecutive slots span at least one window.
            expect(store.grants).toHaveLength(callers.length + 1);
            const sorted = [...store.grants].sort((a, b) => a - b);
            for (let i = budgetSize; i < sorted.length; i++)
              expect((sorted[i] ?? 0) - (sorted[i - budgetSize] ?? 0)).toBeGreaterThanOrEqual(60_000);
            expect(clock.now()).toBeGreaterThanOrEqual(start);
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      await server.close();
    }
  });
});
