import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

import { KEY_PREFIX } from "../db/keys";
import { clientAddress, verifyKeyPair } from "../http/auth";
import type { SandboxEnv } from "../http/env";
import { ApiError, badRequest } from "../http/errors";
import { errorResponses, type RouteDeps, type V1App } from "./common";

const MAX_BODY_BYTES = 8 * 1024;

/** "<field> is required" when the field is absent, "<field> must be a string" when it has another type. */
const stringField = (name: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`) });

const AuthRequest = z
  .object({
    key_id: stringField("key_id")
      .min(1, { error: "key_id must not be empty" })
      .max(200, { error: "key_id is too long" })
      .startsWith(KEY_PREFIX, { error: `key_id must begin with the service key prefix ${KEY_PREFIX}` })
      .openapi({ example: `${KEY_PREFIX}0123456789abcdef01234567` }),
    secret: stringField("secret")
      .min(1, { error: "secret must not be empty" })
      .max(500, { error: "secret is too long" }),
  })
  .openapi("AuthRequest");

/** The body must be sent as JSON: checked first, so the message says what is wrong. */
const requireJsonType: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type))
    throw badRequest("Send the key pair as a JSON body {key_id, secret} with Content-Type: application/json.");
  await next();
};

/**
 * At most MAX_BODY_BYTES: a Content-Length over it is refused unread, and a body without one (chunked) is read
 * only up to the limit, then refused.
 */
const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw badRequest(`The request body is larger than ${String(MAX_BODY_BYTES)} bytes.`);
  },
});

/** The (small) body must be a JSON object; checked before validation so the message says what is wrong. */
const requireJsonObject: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const text = await c.req.raw.clone().text();
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw badRequest("The request body must be a JSON object {key_id, secret}.");
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badRequest("The request body is not valid JSON.");
  }
  await next();
};

export function registerAuth(app: V1App, deps: RouteDeps): void {
  const { schemas, config } = deps;
  const route = createRoute({
    method: "post",
    path: "/auth",
    operationId: "createToken",
    tags: ["auth"],
    summary: "Exchange a key pair for a bearer token",
    description: `Returns a bearer token that lives expires_in seconds (${String(config.tokenTtlSeconds)}). While a key's token is valid the same token is returned, with the seconds it has left.`,
    security: [],
    middleware: [requireJsonType, limitBody, requireJsonObject] as const,
    request: { body: { required: true, content: { "application/json": { schema: AuthRequest } } } },
    responses: {
      200: { description: "A bearer token", content: { "application/json": { schema: schemas.AuthResponse } } },
      ...errorResponses(schemas, [400, 401, 429, 500]),
    },
  });

  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    // The allow-list (alternative profile) is applied inside, before the secret is checked.
    const key = await verifyKeyPair(deps, body.key_id, body.secret, clientAddress(c));
    deps.limiter.take(key.keyId);
    const { token, expiresInSeconds } = deps.tokens.issue(key.keyId);
    const common = { access_token: token, token_type: "Bearer" as const, expires_in: expiresInSeconds };
    return c.json(
      config.profile === "primary" ? { ok: true as const, ...common } : { ...common, scopes: key.scopes },
      200,
    );
  });
}
