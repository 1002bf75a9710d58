import { OpenAPIHono } from "@hono/zod-openapi";
import type Database from "better-sqlite3";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";

import type { Profile, SandboxConfig } from "./config";
import { Queries } from "./db/queries";
import { controlRoutes, dataControlRoutes, type ServedRequest } from "./http/control";
import type { SandboxEnv } from "./http/env";
import { ApiError, errorBody } from "./http/errors";
import { faultInjection } from "./http/faults";
import { FailedAuthLimiter, FixedWindowLimiter } from "./http/rate-limit";
import { TokenStore } from "./http/tokens";
import { registerAccount } from "./routes/account";
import { registerAuth } from "./routes/auth";
import type { RouteDeps } from "./routes/common";
import { registerLocations } from "./routes/locations";
import { validationHook } from "./routes/params";
import { presenters } from "./routes/present";
import { schemasFor } from "./routes/schemas";
import { registerTransactions } from "./routes/transactions";

export interface SandboxAppOptions {
  db: Database.Database;
  config: SandboxConfig;
  /** One line per request; omitted = silent. Never given the Authorization header. */
  log?: (line: string) => void;
}

export const API_PREFIX = "/api/v1";
const MAX_SERVED_LOG = 100_000;

/** The whole HTTP surface: /api/v1/**, the OpenAPI document, /healthz. */
export function createSandboxApp(options: SandboxAppOptions): Hono<SandboxEnv> {
  const { db, config } = options;
  // With control on, the clock can be moved forward (PUT /sandbox/clock) so a client's test can reach a token's last
  // minute without waiting an hour. Installed before anything reads `config.now`.
  const clock = { offsetMs: 0 };
  if (config.control) {
    const base = config.now;
    config.now = () => base() + clock.offsetMs;
  }
  const v1 = apiRoutes(db, config);
  const document = openApiDocument(v1, config);

  const app = new Hono<SandboxEnv>();
  /** With `control`, the /api/v1 requests served (bounded), for tests that count them per budget window. */
  const served: ServedRequest[] = [];
  app.use("*", async (c, next) => {
    const started = performance.now();
    const arrivedMs = config.now();
    await next();
    if (config.control) {
      const path = new URL(c.req.url).pathname;
      if (path.startsWith(API_PREFIX)) {
        if (served.length >= MAX_SERVED_LOG) served.splice(0, served.length / 2);
        served.push({ atMs: arrivedMs, method: c.req.method, path, status: c.res.status });
      }
    }
    options.log?.(
      `${c.req.method} ${new URL(c.req.url).pathname} ${String(c.res.status)} ${(performance.now() - started).toFixed(1)}ms`,
    );
  });
  app.get("/healthz", (c) => c.json({ ok: true, profile: config.profile }));
  app.get(`${API_PREFIX}/docs/openapi`, (c) => c.json(document));
  app.get("/api/docs/openapi", (c) => c.json(document));
  app.route(API_PREFIX, v1);
  if (config.control) {
    app.route("/sandbox", controlRoutes(config, clock));
    app.route("/sandbox", dataControlRoutes(db, config, served));
  }
  answerErrors(app, config.profile);
  return app;
}

/** The /api/v1 routes of the configured profile, with their shared state (tokens, budgets, queries). */
function apiRoutes(db: Database.Database, config: SandboxConfig): OpenAPIHono<SandboxEnv> {
  const deps: RouteDeps = {
    db,
    config,
    tokens: new TokenStore(config.tokenTtlSeconds, config.now),
    limiter: new FixedWindowLimiter(config.budget, config.windowSeconds, config.now),
    failedAuth: new FailedAuthLimiter(config.failedAuthBudget, config.windowSeconds, config.now),
    queries: new Queries(db),
    schemas: schemasFor(config.profile),
    present: presenters(config.profile),
  };

  const v1 = new OpenAPIHono<SandboxEnv>({ defaultHook: validationHook(config.profile) });
  v1.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "Token from POST /auth",
  });
  v1.openAPIRegistry.registerComponent("securitySchemes", "basicAuth", {
    type: "http",
    scheme: "basic",
    description: "key_id:secret; slower than bearer",
  });
  v1.use("*", faultInjection(config));
  registerAuth(v1, deps);
  registerAccount(v1, deps);
  registerTransactions(v1, deps);
  registerLocations(v1, deps);
  return v1;
}

function openApiDocument(v1: OpenAPIHono<SandboxEnv>, config: SandboxConfig) {
  return v1.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Fleet Fuel Customer API (sandbox)",
      version: "1.0.0-beta",
      description: `Reference implementation of the Fleet Fuel Customer API v1, serving the ${config.profile} profile. Budget: ${String(config.budget)} requests per key per ${String(config.windowSeconds)} s; after ${String(config.failedAuthBudget)} failed key-pair checks from one address in a window, key-pair checks from it are answered 429 until the window ends.`,
      license: { name: "Proprietary", url: "https://example.com/fleet-fuel/terms" },
      contact: { name: "Fleet Fuel Dashboard team" },
    },
    servers: [{ url: API_PREFIX, description: "This sandbox" }],
    tags: [
      { name: "auth", description: "Key pair to bearer token" },
      { name: "account", description: "The calling customer" },
      { name: "transactions", description: "Fuel transactions" },
      { name: "locations", description: "Station catalog" },
    ],
  });
}

/** Unknown paths and thrown errors answer in the profile's error shape; only our own bugs are 500s. */
function answerErrors(app: Hono<SandboxEnv>, profile: Profile): void {
  app.notFound((c) =>
    c.json(errorBody(profile, "not_found", `No such endpoint: ${c.req.method} ${new URL(c.req.url).pathname}.`), 404),
  );
  app.onError((error, c) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(errorBody(profile, error.code, error.message), error.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(errorBody(profile, "bad_request", error.message || "The request is malformed."), 400);
    }
    // Our own bug: log it here, answer without details.
    console.error("[sandbox] unhandled error", error);
    return c.json(
      errorBody(profile, "server_error", "The sandbox failed to answer this request; retrying is advised."),
      500,
    );
  });
}
