import type { Hook } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { Env } from "hono";
import type { ZodError } from "zod";

import type { Profile } from "../config";
import { errorBody } from "../http/errors";

/**
 * Query parameter schemas. Every message names its parameter, because a person reads them.
 * Integers are strict digits (no "1e2", " 5" or "0x10"), then range-checked.
 */
export function intParam(name: string, opts: { min: number; max?: number; default: number; description: string }) {
  const range =
    opts.max === undefined ? `at least ${String(opts.min)}` : `between ${String(opts.min)} and ${String(opts.max)}`;
  let inner = z
    .number()
    .int()
    .min(opts.min, { error: `${name} must be ${range}` });
  if (opts.max !== undefined) inner = inner.max(opts.max, { error: `${name} must be ${range}` });
  return z
    .string({ error: `${name} must be given once, as a whole number` })
    .regex(/^[0-9]{1,9}$/, { error: `${name} must be a whole number ${range}` })
    .transform(Number)
    .pipe(inner)
    .optional()
    .openapi({
      param: { name, in: "query", description: opts.description },
      type: "integer",
      minimum: opts.min,
      ...(opts.max === undefined ? {} : { maximum: opts.max }),
      default: opts.default,
    });
}

export function enumParam<const T extends readonly [string, ...string[]]>(
  name: string,
  values: T,
  description: string,
) {
  return z
    .string({ error: `${name} must be given once` })
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(values, { error: `${name} must be one of ${values.join(", ")}` }))
    .optional()
    .openapi({ param: { name, in: "query", description }, type: "string", enum: [...values] });
}

/** U+0000–U+001F and U+007F. SQLite's LIKE ends the pattern at a NUL, so `%00` would match every row. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Free-text search: up to 100 characters, no control characters, trimmed; an empty value means no filter. */
export function searchParam(name: string, description: string) {
  return z
    .string({ error: `${name} must be given once` })
    .refine((v) => !hasControlCharacter(v), { error: `${name} must not contain control characters` })
    .max(100, { error: `${name} must be at most 100 characters` })
    .transform((v) => v.trim())
    .optional()
    .openapi({
      param: {
        name,
        in: "query",
        description: `${description}. Control characters (U+0000–U+001F, U+007F) are rejected.`,
      },
      type: "string",
      maxLength: 100,
      pattern: "^[^\\u0000-\\u001F\\u007F]*$",
    });
}

/** `from`/`to`: ISO dates (primary) or ISO 8601 datetimes with Z or an offset (alternative). */
export function dateBoundParam(name: "from" | "to", profile: Profile) {
  const inclusive = name === "from" ? "on or after" : "on or before";
  if (profile === "primary") {
    return z
      .string({ error: `${name} must be given once` })
      .pipe(z.iso.date({ error: `${name} must be a calendar date as YYYY-MM-DD (UTC), e.g. 2026-03-01` }))
      .optional()
      .openapi({
        param: { name, in: "query", description: `Transactions ${inclusive} this UTC date (inclusive).` },
        type: "string",
        format: "date",
      });
  }
  return z
    .string({ error: `${name} must be given once` })
    .pipe(
      z.iso.datetime({
        offset: true,
        error: `${name} must be an ISO 8601 datetime with Z or an offset, e.g. 2026-03-01T00:00:00Z`,
      }),
    )
    .optional()
    .openapi({
      param: {
        name,
        in: "query",
        description: `Transactions at or ${name === "from" ? "after" : "before"} this instant (inclusive).`,
      },
      type: "string",
      format: "date-time",
    });
}

/** Turns the first validation issue into a 400 `bad_request` that names the parameter. */
export function validationHook<E extends Env>(profile: Profile): Hook<unknown, E, string, unknown> {
  return (result, c) => {
    if (result.success) return;
    return c.json(errorBody(profile, "bad_request", describeIssue(result.error, result.target)), 400);
  };
}

function describeIssue(error: ZodError, target: string): string {
  const issue = error.issues[0];
  if (!issue) return "The request is malformed.";
  if (issue.code === "unrecognized_keys") {
    const noun = target === "query" ? "query parameter" : "field";
    return `Unknown ${noun}${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}.`;
  }
  // The schemas word their own messages (naming the field, "is required" vs "must be a string"): trust them.
  const field = issue.path.map(String).join(".");
  if (issue.message.includes(field) && field !== "") return `${issue.message}.`;
  return field ? `${field}: ${issue.message}.` : `${issue.message}.`;
}
