import { Hono } from "hono";
import { z } from "zod";
import type { FaultSettings, SandboxConfig } from "../config";
import type { SandboxEnv } from "./env";

/**
 * `/sandbox/faults`: change the fault injection of a running sandbox (on with `--control`, for tests only).
 *   GET     the faults in force
 *   PUT     replace them: JSON with any of latencyMs, errorRate, dropRate, malformedRate, rateLimitSeconds (missing = 0)
 *   DELETE  back to the faults the sandbox was started with
 * and `/sandbox/clock`: GET the offset in force, PUT `{offsetMs}` to run the sandbox's clock that far ahead of the
 * real one (tokens, budget windows and failed-check windows all follow it; never backwards).
 * The e2e suite uses it to show the dashboard a slow, failing or rate-limiting upstream without mocking the BFF's
 * HTTP calls. Not part of the Fleet Fuel API; never served unless asked for.
 */
const FaultsBody = z
  .object({
    latencyMs: z.number().int().min(0).max(600_000).default(0),
    errorRate: z.number().min(0).max(1).default(0),
    dropRate: z.number().min(0).max(1).default(0),
    malformedRate: z.number().min(0).max(1).default(0),
    rateLimitSeconds: z.number().int().min(0).max(86_400).default(0),
  })
  .strict();

const ClockBody = z.object({ offsetMs: z.number().int().min(0).max(366 * 86_400_000) }).strict();

export function controlRoutes(config: SandboxConfig, clock: { offsetMs: number }): Hono<SandboxEnv> {
  const initial: FaultSettings = { ...config.faults };
  const routes = new Hono<SandboxEnv>();
  routes.get("/faults", (c) => c.json(config.faults));
  routes.put("/faults", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: "Send the faults as a JSON object." }, 400);
    }
    const parsed = FaultsBody.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? "body" : issue.path.join(".");
      return c.json({ error: `${where}: ${issue?.message ?? "invalid"}` }, 400);
    }
    config.faults = { ...parsed.data, headers: initial.headers };
    return c.json(config.faults);
  });
  routes.get("/clock", (c) => c.json({ offsetMs: clock.offsetMs }));
  routes.put("/clock", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: "Send the clock as a JSON object {offsetMs}." }, 400);
    }
    const parsed = ClockBody.safeParse(body);
    if (!parsed.success) return c.json({ error: "offsetMs must be a whole number of milliseconds from 0 to a year." }, 400);
    if (parsed.data.offsetMs < clock.offsetMs) return c.json({ error: `offsetMs may only move forward (it is ${String(clock.offsetMs)}).` }, 400);
    clock.offsetMs = parsed.data.offsetMs;
    return c.json({ offsetMs: clock.offsetMs });
  });
  routes.delete("/faults", (c) => {
    config.faults = { ...initial };
    return c.json(config.faults);
  });
  return routes;
}
