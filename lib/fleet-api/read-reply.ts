import "server-only";

import type { z } from "zod";

import { FleetApiError, isFleetApiError } from "./errors";

/** Reading a reply with a schema: envelopes, and the one `invalid_response` naming the first offending field. */

export type Path = readonly PropertyKey[];

/** How each reply is named in messages: "The Fleet Fuel API sent <this> we cannot read: …". */
export const REPLY_NAMES = {
  auth: "a sign-in reply",
  account: "an account",
  transactionList: "a transaction list",
  transaction: "a transaction",
  stationList: "a station list",
  station: "a station",
} as const;
export type ReplyName = (typeof REPLY_NAMES)[keyof typeof REPLY_NAMES];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Single resources come wrapped `{ok: true, data: {…}}` (our sandbox) or bare (the spec's "the single resource").
 * A reply is taken as wrapped when it has `data` and no `id` of its own.
 */
export function unwrapSingle(body: unknown, what: ReplyName): { resource: unknown; prefix: Path } {
  if (!isRecord(body) || !("data" in body) || "id" in body) return { resource: body, prefix: [] };
  if ("ok" in body && body.ok !== true) throw invalidResponse(what, ["ok"], "is not true");
  return { resource: body.data, prefix: ["data"] };
}

export function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  what: ReplyName,
  prefix: Path,
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw invalidResponse(what, prefix, "could not be read");
  return throwForIssue(issue, value, what, prefix);
}

function throwForIssue(issue: z.core.$ZodIssue, value: unknown, what: ReplyName, prefix: Path): never {
  throw invalidResponse(what, [...prefix, ...issue.path], describeIssue(issue, valueAt(value, issue.path)));
}

function valueAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const key of path) {
    if (typeof key === "symbol") return undefined;
    if (Array.isArray(current) && typeof key === "number") current = current[key];
    else if (isRecord(current)) current = current[String(key)];
    else return undefined;
  }
  return current;
}

const EXPECTED_IN_WORDS: Readonly<Record<string, string>> = {
  string: "is not a string",
  number: "is not a number",
  int: "is not a whole number",
  boolean: "is not true or false",
  object: "is not an object",
  record: "is not an object",
  array: "is not a list",
};

/** The words after the field's name: "… data.items.3.status is not one of completed, pending, failed". */
function describeIssue(issue: z.core.$ZodIssue, received: unknown): string {
  switch (issue.code) {
    case "custom":
      return issue.message;
    case "invalid_type":
      if (received === undefined) return "is missing";
      if (received === null) return "is null";
      return EXPECTED_IN_WORDS[issue.expected] ?? `is not of the expected type (${issue.expected})`;
    case "invalid_value":
      return issue.values.length === 1
        ? `is not ${String(issue.values[0])}`
        : `is not one of ${issue.values.map(String).join(", ")}`;
    case "too_small":
      if (issue.origin === "string") return "is empty";
      return issue.origin === "array" ? "has too few entries" : `is less than ${String(issue.minimum)}`;
    case "too_big":
      return "is too large";
    case "invalid_format":
      return "is not in the expected format";
    case "invalid_key":
    case "invalid_element":
      return "has an entry we cannot read";
    default:
      return "is not valid";
  }
}

function invalidResponse(what: ReplyName, path: Path, problem: string, cause?: unknown): FleetApiError {
  const field = path.length > 0 ? path.map(String).join(".") : undefined;
  return new FleetApiError({
    status: 200,
    code: "invalid_response",
    message: `The Fleet Fuel API sent ${what} we cannot read: ${field ?? "the reply"} ${problem}`,
    ...(field === undefined ? {} : { field }),
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Whatever goes wrong while reshaping is an invalid_response; a FleetApiError already is one. */
export function guard<T>(what: ReplyName, reshape: () => T): T {
  try {
    return reshape();
  } catch (error) {
    if (isFleetApiError(error)) throw error;
    throw invalidResponse(what, [], "could not be read", error);
  }
}
