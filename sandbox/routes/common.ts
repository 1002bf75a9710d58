import type { OpenAPIHono } from "@hono/zod-openapi";

import type { Queries } from "../db/queries";
import type { AuthDeps } from "../http/auth";
import type { SandboxEnv } from "../http/env";
import type { presenters } from "./present";
import type { ProfileSchemas } from "./schemas";

export interface RouteDeps extends AuthDeps {
  queries: Queries;
  schemas: ProfileSchemas;
  present: ReturnType<typeof presenters>;
}

export type V1App = OpenAPIHono<SandboxEnv>;

/** The documented error responses, by status, for createRoute's `responses`. */
export function errorResponses(schemas: ProfileSchemas, statuses: readonly (400 | 401 | 403 | 404 | 429 | 500)[]) {
  const descriptions: Record<number, string> = {
    400: "bad_request: missing or malformed parameters",
    401: "unauthenticated: missing or invalid bearer or basic credentials",
    403: "scope_denied: key valid but lacks the required scope",
    404: "not_found: resource does not exist for this customer",
    429: "rate_limited: the key's request budget is spent, or too many failed key-pair checks came from this address; see Retry-After",
    500: "server_error: retrying is advised",
  };
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: descriptions[status] ?? "error",
        content: { "application/json": { schema: schemas.ErrorBody } },
        ...(status === 429
          ? {
              headers: {
                "Retry-After": {
                  description: "Whole seconds until the window resets",
                  schema: { type: "integer" as const, minimum: 1 },
                },
              },
            }
          : {}),
      },
    ]),
  );
}

export const GET_ERRORS = [400, 401, 403, 429, 500] as const;
export const SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }, { basicAuth: [] }];
