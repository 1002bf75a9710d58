import { createRoute, z } from "@hono/zod-openapi";

import type { Profile } from "../config";
import { US_STATE_CODES } from "../db/geo-data";
import { BRANDS } from "../db/station-catalog";
import { requireAuth } from "../http/auth";
import { ApiError, notFound } from "../http/errors";
import { errorResponses, GET_ERRORS, type RouteDeps, SECURITY, type V1App } from "./common";
import { enumParam, intParam, searchParam } from "./params";
import { ALTERNATIVE_BRANDS } from "./present";

const LOCATIONS_MAX_LIMIT = 500;

function locationQuery(profile: Profile) {
  const brands = profile === "primary" ? BRANDS : ALTERNATIVE_BRANDS;
  const searchName = profile === "primary" ? "search" : "q";
  return z
    .object({
      page: intParam("page", { min: 1, default: 1, description: "1-based page index" }),
      limit: intParam("limit", { min: 1, max: LOCATIONS_MAX_LIMIT, default: 100, description: "Page size" }),
      brand: enumParam("brand", brands as unknown as readonly [string, ...string[]], "Lower-case chain code"),
      state: z
        .string({ error: "state must be given once" })
        .transform((v) => v.toUpperCase())
        .pipe(
          z.enum(US_STATE_CODES as unknown as readonly [string, ...string[]], {
            error: "state must be a USPS two-letter state code, e.g. TX",
          }),
        )
        .optional()
        .openapi({
          param: { name: "state", in: "query", description: "USPS two-letter state code" },
          type: "string",
          pattern: "^[A-Za-z]{2}$",
        }),
      [searchName]: searchParam(searchName, "Case-insensitive substring of the station name, city or loc_num"),
    })
    .strict();
}

export function registerLocations(app: V1App, deps: RouteDeps): void {
  const { schemas, config } = deps;
  const isPrimary = config.profile === "primary";
  const list = createRoute({
    method: "get",
    path: "/locations",
    operationId: "listLocations",
    tags: ["locations"],
    summary: "Station catalog with this customer's latest price",
    security: SECURITY,
    middleware: [requireAuth(deps, "locations")] as const,
    request: { query: locationQuery(config.profile) },
    responses: {
      200: { description: "One page of stations", content: { "application/json": { schema: schemas.LocationPage } } },
      ...errorResponses(schemas, GET_ERRORS),
    },
  });
  app.openapi(list, (c) => {
    const q = c.req.valid("query") as {
      page?: number;
      limit?: number;
      brand?: string;
      state?: string;
      search?: string;
      q?: string;
    };
    const page = q.page ?? 1;
    const limit = q.limit ?? 100;
    const search = isPrimary ? q.search : q.q;
    const brandFilter =
      q.brand === undefined
        ? {}
        : !isPrimary && q.brand === "other"
          ? { excludeBrands: ["pilot", "loves"] }
          : { brands: [q.brand] };
    const result = deps.queries.locationPage(
      { ...brandFilter, ...(q.state ? { state: q.state } : {}), ...(search ? { search } : {}) },
      { page, limit },
    );
    const fee = feeOf(deps, c.get("customerPk"));
    return c.json(
      {
        ok: true as const,
        data: {
          page,
          limit,
          total: result.total,
          pages: Math.ceil(result.total / limit),
          items: result.rows.map((row) => deps.present.location(row, fee)),
        },
      },
      200,
    );
  });

  const detail = createRoute({
    method: "get",
    path: "/locations/{id}",
    operationId: "getLocation",
    tags: ["locations"],
    summary: "Full details of one station",
    security: SECURITY,
    middleware: [requireAuth(deps, "locations")] as const,
    request: {
      params: z.object({
        id: z.string().openapi({ param: { name: "id", in: "path" }, example: "3f0c6a52-8d0e-4c1e-9a57-1d2b3c4d5e6f" }),
      }),
    },
    responses: {
      200: { description: "The station", content: { "application/json": { schema: schemas.LocationResponse } } },
      ...errorResponses(schemas, [...GET_ERRORS, 404]),
    },
  });
  app.openapi(detail, (c) => {
    const { id } = c.req.valid("param");
    const row = deps.queries.station(id);
    if (!row) throw notFound("No station with that id exists.");
    return c.json({ ok: true as const, data: deps.present.locationDetail(row, feeOf(deps, c.get("customerPk"))) }, 200);
  });
}

function feeOf(deps: RouteDeps, customerPk: number): number {
  const customer = deps.queries.customer(customerPk);
  if (!customer) throw new ApiError(500, "server_error", "The key's customer is missing.");
  return customer.fee_milli;
}
