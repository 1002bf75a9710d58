import { createRoute, z } from "@hono/zod-openapi";

import type { Profile } from "../config";
import { requireAuth } from "../http/auth";
import { notFound } from "../http/errors";
import { errorResponses, GET_ERRORS, type RouteDeps, SECURITY, type V1App } from "./common";
import { dateBoundParam, enumParam, intParam, searchParam } from "./params";

const TRANSACTION_STATUSES = ["completed", "pending", "failed"] as const;
const TRANSACTIONS_MAX_LIMIT = 200;
const DAY_SEC = 86_400;

function transactionQuery(profile: Profile) {
  return z
    .object({
      page: intParam("page", { min: 1, default: 1, description: "1-based page index" }),
      limit: intParam("limit", { min: 1, max: TRANSACTIONS_MAX_LIMIT, default: 50, description: "Page size" }),
      from: dateBoundParam("from", profile),
      to: dateBoundParam("to", profile),
      status: enumParam("status", TRANSACTION_STATUSES, "Only transactions with this status"),
      search: searchParam(
        "search",
        "Case-insensitive substring of the station name, the driver name or the card's last four digits",
      ),
    })
    .strict()
    .superRefine((q, ctx) => {
      if (q.from !== undefined && q.to !== undefined && boundsOf(q.from, q.to).fromSec > boundsOf(q.from, q.to).toSec) {
        ctx.addIssue({ code: "custom", path: ["from"], message: `from (${q.from}) is after to (${q.to})` });
      }
    });
}

/** Inclusive epoch-second bounds: dates cover whole UTC days; datetimes are exact instants. */
function boundsOf(from: string | undefined, to: string | undefined): { fromSec: number; toSec: number } {
  const isDate = (v: string) => v.length === 10;
  const fromSec =
    from === undefined
      ? Number.NEGATIVE_INFINITY
      : Math.ceil(Date.parse(isDate(from) ? `${from}T00:00:00Z` : from) / 1000);
  const toSec =
    to === undefined
      ? Number.POSITIVE_INFINITY
      : isDate(to)
        ? Date.parse(`${to}T00:00:00Z`) / 1000 + DAY_SEC - 1
        : Math.floor(Date.parse(to) / 1000);
  return { fromSec, toSec };
}

export function registerTransactions(app: V1App, deps: RouteDeps): void {
  const { schemas, config } = deps;
  const list = createRoute({
    method: "get",
    path: "/transactions",
    operationId: "listTransactions",
    tags: ["transactions"],
    summary: "The caller's transactions, most recent first",
    description:
      config.profile === "primary"
        ? "from/to are ISO dates (UTC days), both inclusive. Ties in time are broken by the order the provider received them."
        : "from/to are ISO 8601 datetimes with Z or an offset, both inclusive.",
    security: SECURITY,
    middleware: [requireAuth(deps, "transactions")] as const,
    request: { query: transactionQuery(config.profile) },
    responses: {
      200: {
        description: "One page of transactions",
        content: { "application/json": { schema: schemas.TransactionPage } },
      },
      ...errorResponses(schemas, GET_ERRORS),
    },
  });
  app.openapi(list, (c) => {
    const q = c.req.valid("query");
    const page = q.page ?? 1;
    const limit = q.limit ?? 50;
    const { fromSec, toSec } = boundsOf(q.from, q.to);
    const result = deps.queries.transactionPage(
      {
        customerPk: c.get("customerPk"),
        ...(Number.isFinite(fromSec) ? { fromSec } : {}),
        ...(Number.isFinite(toSec) ? { toSec } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.search ? { search: q.search } : {}),
      },
      { page, limit },
    );
    return c.json(
      {
        ok: true as const,
        data: {
          page,
          limit,
          total: result.total,
          pages: Math.ceil(result.total / limit),
          items: result.rows.map(deps.present.transaction),
        },
      },
      200,
    );
  });

  const detail = createRoute({
    method: "get",
    path: "/transactions/{id}",
    operationId: "getTransaction",
    tags: ["transactions"],
    summary: "One transaction with its full breakdown",
    security: SECURITY,
    middleware: [requireAuth(deps, "transactions")] as const,
    request: {
      params: z.object({
        id: z.string().openapi({ param: { name: "id", in: "path" }, example: "3f0c6a52-8d0e-4c1e-9a57-1d2b3c4d5e6f" }),
      }),
    },
    responses: {
      200: { description: "The transaction", content: { "application/json": { schema: schemas.TransactionResponse } } },
      ...errorResponses(schemas, [...GET_ERRORS, 404]),
    },
  });
  app.openapi(detail, (c) => {
    const { id } = c.req.valid("param");
    const row = deps.queries.transaction(c.get("customerPk"), id);
    if (!row) throw notFound("No transaction with that id exists for your account.");
    return c.json({ ok: true as const, data: deps.present.transactionDetail(row) }, 200);
  });
}
