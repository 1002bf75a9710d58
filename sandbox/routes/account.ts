import { createRoute } from "@hono/zod-openapi";

import { requireAuth } from "../http/auth";
import { ApiError } from "../http/errors";
import { errorResponses, GET_ERRORS, type RouteDeps, SECURITY, type V1App } from "./common";

const THIRTY_DAYS_SEC = 30 * 86_400;

export function registerAccount(app: V1App, deps: RouteDeps): void {
  const { schemas, config } = deps;
  const route = createRoute({
    method: "get",
    path: "/account-details",
    operationId: "getAccountDetails",
    tags: ["account"],
    summary: "The calling customer's account and rolling 30-day totals",
    security: SECURITY,
    middleware: [requireAuth(deps, "account")] as const,
    responses: {
      200: { description: "Account details", content: { "application/json": { schema: schemas.Account } } },
      ...errorResponses(schemas, GET_ERRORS),
    },
  });
  app.openapi(route, (c) => {
    const customer = deps.queries.customer(c.get("customerPk"));
    if (!customer) throw new ApiError(500, "server_error", "The key's customer is missing.");
    const nowSec = Math.floor(config.now() / 1000);
    const totals = deps.queries.totals(customer.pk, nowSec - THIRTY_DAYS_SEC, nowSec);
    return c.json(deps.present.account(customer, totals), 200);
  });
}
