import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { type Priority, RequestBudget } from "./budget";
import { type BudgetStore, MemoryBudgetStore } from "./budget-store";
import { FakeClock } from "./fixtures/fake-clock";

const T0 = Date.UTC(2025, 0, 6, 8, 0, 0);
const KEY = "key-hash-a";

interface Caller {
  readonly priority: Priority;
  readonly arriveAt: number;
  readonly abortAfter: number | null;
}

interface CallerRecord {
  arrivedStep?: number;
  grantedStep?: number;
  grantedAt?: number;
  abortedStep?: number;
  rejection?: unknown;
  readonly reason: Error;
}

describe("RequestBudget property", () => {
  const callerArb = fc.record({
    priority: fc.constantFrom<Priority>("interactive", "bulk"),
    arriveAt: fc.integer({ min: 0, max: 4_000 }),
    abortAfter: fc.option(fc.integer({ min: 0, max: 3_000 }), { freq: 3 }),
  });
  const scenarioArb = fc.record({
    budget: fc.integer({ min: 1, max: 5 }),
    windowMs: fc.integer({ min: 100, max: 2_000 }),
    margin: fc.integer({ min: 0, max: 50 }),
    callers: fc.array(callerArb, { minLength: 1, maxLength: 30 }),
  });

  it("keeps every window within budget, serves everyone who stays, and never lets bulk pass a waiting interactive", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ budget, windowMs, margin, callers }) => {
        const clock = new FakeClock(T0);
        const memory = new MemoryBudgetStore();
        let storeGrants = 0;
        const store: BudgetStore = {
          tryAcquire: async (...args) => {
            const attempt = await memory.tryAcquire(...args);
            if (attempt.granted) storeGrants++;
            return attempt;
          },
          pauseUntil: (...args) => memory.pauseUntil(...args),
          count: (...args) => memory.count(...args),
          pausedUntil: (...args) => memory.pausedUntil(...args),
          learned: (...args) => memory.learned(...args),
          setLearned: (...args) => memory.setLearned(...args),
        };
        const requestBudget = new RequestBudget({ budget, windowMs, clock, store, safetyMarginMs: margin });
        let step = 0;
        const records: CallerRecord[] = callers.map((_, i) => ({ reason: new Error(`caller ${i} left`) }));
        const controllers = callers.map(() => new AbortController());

        type Event = { at: number; order: number; run: () => void };
        const events: Event[] = [];
        callers.forEach((caller: Caller, i) => {
          const record = records[i];
          const controller = controllers[i];
          if (!record || !controller) return;
          events.push({
            at: caller.arriveAt,
            order: 0,
            run: () => {
              record.arrivedStep = step++;
              requestBudget.acquire(KEY, caller.priority, controller.signal).then(
                () => {
                  record.grantedStep = step++;
                  record.grantedAt = clock.now();
                },
                (error: unknown) => {
                  record.rejection = error;
                },
              );
            },
          });
          if (caller.abortAfter !== null) {
            events.push({
              at: caller.arriveAt + caller.abortAfter,
              order: 1,
              run: () => {
                if (record.grantedStep === undefined) record.abortedStep = step++;
                controller.abort(record.reason);
              },
            });
          }
        });
        events.sort((x, y) => x.at - y.at || x.order - y.order);
        for (const event of events) {
          await clock.advanceTo(T0 + event.at);
          event.run();
          await clock.advance(0);
        }
        await clock.runUntilIdle();

        // (a) any budget + 1 grants are at least a window (plus the margin) apart.
        const times = records.flatMap((r) => (r.grantedAt === undefined ? [] : [r.grantedAt])).sort((x, y) => x - y);
        for (let i = 0; i + budget < times.length; i++) {
          expect((times[i + budget] ?? 0) - (times[i] ?? 0)).toBeGreaterThanOrEqual(windowMs + margin);
        }
        // Every slot taken from the store went to a caller: nobody who left consumed budget.
        expect(storeGrants).toBe(times.length);
        // (b) everyone who did not leave while waiting is granted; everyone who left hears their own reason.
        for (const r of records) {
          if (r.abortedStep === undefined) expect(r.grantedStep).toBeDefined();
          else {
            expect(r.grantedStep).toBeUndefined();
            expect(r.rejection).toBe(r.reason);
          }
        }
        // (c) no bulk grant while an interactive waiter was waiting; and FIFO within a priority.
        callers.forEach((ci, i) => {
          const grantedStep = records[i]?.grantedStep;
          const arrivedStep = records[i]?.arrivedStep;
          if (grantedStep === undefined || arrivedStep === undefined) return;
          callers.forEach((cj, j) => {
            const rj = records[j];
            if (i === j || rj?.arrivedStep === undefined || rj.arrivedStep > grantedStep) return;
            const wasWaiting = (rj.grantedStep ?? Infinity) > grantedStep && (rj.abortedStep ?? Infinity) > grantedStep;
            if (ci.priority === "bulk" && cj.priority === "interactive") expect(wasWaiting).toBe(false);
            if (ci.priority === cj.priority && rj.arrivedStep < arrivedStep) expect(wasWaiting).toBe(false);
          });
        });
        // Idle afterwards: no queue, no sleeping pump.
        expect(requestBudget.pending(KEY)).toEqual({ interactive: 0, bulk: 0 });
        expect(clock.pendingSleeps).toBe(0);
      }),
      { numRuns: 150 },
    );
  });
});
