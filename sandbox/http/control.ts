import type Database from "better-sqlite3";
import { type Context, Hono } from "hono";
import { z } from "zod";

import type { FaultSettings, SandboxConfig } from "../config";
import { addTransactions } from "../db/seed";
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
 *
 * `/sandbox/transactions`: change the data while running, the way a provider's data changes (the mirror's tests):
 *   POST    /sandbox/transactions       {customer, count?, atSec?} inserts `count` new pending transactions (at `atSec`,
 *                                       default now; an earlier time is a late-arriving row) → {ids}
 *   PATCH   /sandbox/transactions/:id   {status} changes a transaction's status
 *   DELETE  /sandbox/transactions/:id   deletes one
 * `/sandbox/requests`: the /api/v1 requests served so far, with their times (tests count them per budget window).
 */
const InsertBody = z
  .object({
    customer: z.string().min(1).max(40),
    count: z.number().int().min(1).max(10_000).default(1),
    atSec: z.number().int().min(0).optional(),
  })
  .strict();
const StatusBody = z.object({ status: z.enum(["completed", "pending", "failed"]) }).strict();

/** A request the sandbox served: epoch ms, method, path, status. */
export interface ServedRequest {
  atMs: number;
  method: string;
  path: string;
  status: number;
}

async function parseBody<T>(
  c: Context<SandboxEnv>,
  schema: z.ZodType<T>,
): Promise<{ ok: true; data: T } | { ok: false; response: Response }> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return { ok: false, response: c.json({ error: "Send a JSON object." }, 400) };
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "body" : issue.path.join(".");
  return { ok: false, response: c.json({ error: `${where}: ${issue?.message ?? "invalid"}` }, 400) };
}

export function dataControlRoutes(
  db: Database.Database,
  config: SandboxConfig,
  served: readonly ServedRequest[],
): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.post("/transactions", async (c) => {
    const body = await parseBody(c, InsertBody);
    if (!body.ok) return body.response;
    const { customer, count, atSec } = body.data;
    try {
      const ids = addTransactions(
        db,
        customer,
        count,
        atSec ?? Math.floor(config.now() / 1000),
        Math.floor(config.random() * 2 ** 31),
      );
      return c.json({ ids }, 201);
    } catch (error) {
      return c.json({ error: (error as Error).message }, 404);
    }
  });
  routes.patch("/transactions/:id", async (c) => {
    const body = await parseBody(c, StatusBody);
    if (!body.ok) return body.response;
    const result = db
      .prepare("UPDATE transactions SET status = ?, updated_at = ? WHERE id = ?")
      .run(body.data.status, Math.floor(config.now() / 1000), c.req.param("id"));
    return result.changes === 0
      ? c.json({ error: `No transaction ${c.req.param("id")}.` }, 404)
      : c.json({ id: c.req.param("id"), status: body.data.status });
  });
  routes.delete("/transactions/:id", (c) => {
    const result = db.prepare("DELETE FROM transactions WHERE id = ?").run(c.req.param("id"));
    return result.changes === 0
      ? c.json({ error: `No transaction ${c.req.param("id")}.` }, 404)
      : c.json({ id: c.req.param("id"), deleted: true });
  });
  routes.get("/requests", (c) => c.json({ requests: served }));
  return routes;
}
const FaultsBody = z
  .object({
    latencyMs: z.number().int().min(0).max(600_000).default(0),
    errorRate: z.number().min(0).max(1).default(0),
    dropRate: z.number().min(0).max(1).default(0),
    malformedRate: z.number().min(0).max(1).default(0),
    rateLimitSeconds: z.number().int().min(0).max(86_400).default(0),
  })
  .strict();

const ClockBody = z
  .object({
    offsetMs: z
      .number()
      .int()
      .min(0)
      .max(366 * 86_400_000),
  })
  .strict();

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
    if (!parsed.success)
      return c.json({ error: "offsetMs must be a whole number of milliseconds from 0 to a year." }, 400);
    if (parsed.data.offsetMs < clock.offsetMs)
      return c.json({ error: `offsetMs may only move forward (it is ${String(clock.offsetMs)}).` }, 400);
    clock.offsetMs = parsed.data.offsetMs;
    return c.json({ offsetMs: clock.offsetMs });
  });
  routes.delete("/faults", (c) => {
    config.faults = { ...initial };
    return c.json(config.faults);
  });
  return routes;
}
