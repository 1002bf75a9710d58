import "server-only";

import { z } from "zod";

import { MAX_SEARCH_LENGTH } from "@/lib/model/limits";
import { isIsoDay } from "@/lib/model/time-zones";

import { quoted } from "../platform/quoted";
import { BffError } from "./errors";

/**
 * The query string of every route: one value per parameter, checked with a zod schema, and the parameter builders
 * the resources' schemas share (transactions/params.ts, stations/params.ts). Bounds follow the spec (transactions 1–200 per page, locations 1–500). Messages
 * are sentences a person can act on: they name the parameter in words and quote what was sent, and `parseQueryValues`
 * shows them as they are (no "from: from must…").
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point: they are refused in searches
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export const whole = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, {
      error: (issue) =>
        `${name} must be a whole number from ${String(min)} to ${String(max)}; ${quoted(issue.input)} is not`,
    })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `${name} must be at least ${String(min)}` })
        .max(max, { error: `${name} must be at most ${String(max)}` }),
    )
    .optional();

const DATE_WORDS = { from: "The start date (from)", to: "The end date (to)" } as const;

/** A `from`/`to` day parameter (YYYY-MM-DD, a real calendar day), with its message in words. */
export const date = (name: keyof typeof DATE_WORDS) =>
  z
    .string()
    .refine(isIsoDay, {
      error: (issue) =>
        /^\d{4}-\d{2}-\d{2}$/.test(String(issue.input))
          ? `${DATE_WORDS[name]} ${quoted(issue.input)} is not a day of the calendar`
          : `${DATE_WORDS[name]} must be a day written as YYYY-MM-DD, e.g. 2026-05-01; ${quoted(issue.input)} is not`,
    })
    .optional();

/** A search term: trimmed, bounded, no control characters; empty means none. */
export const search = z
  .string()
  .max(MAX_SEARCH_LENGTH, { error: `search must be at most ${String(MAX_SEARCH_LENGTH)} characters` })
  .refine((v) => !CONTROL_CHARS.test(v), { error: "search must not contain control characters" })
  .transform((v) => v.trim())
  .transform((v) => (v === "" ? undefined : v))
  .optional();

export const NoQuery = z.object({}).strict();

/** A query string as one value per name: a repeated parameter is a 400 naming it. */
export function queryValues(params: URLSearchParams): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    if (values.length > 1) throw new BffError("bad_request", `The parameter ${name} was given more than once.`);
    raw[name] = values[0] ?? "";
  }
  return raw;
}

/**
 * Query values checked with a zod object schema: unknown parameters and bad values are 400s naming the parameter,
 * every problem at once.
 */
export function parseQueryValues<T extends z.ZodType>(raw: Record<string, string>, schema: T): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") return `Unknown query parameter: ${issue.keys.join(", ")}.`;
    const name = issue.path.map(String).join(".");
    // Our messages name their parameter in words ("The start date (from) …"); only a bare one gets the name in front.
    return name && !issue.message.includes(name) ? `${name}: ${issue.message}.` : `${issue.message}.`;
  });
  throw new BffError("bad_request", [...new Set(messages)].join(" "));
}

/** Ids go into one upstream path segment; anything else cannot exist and is a 404 without asking the upstream. */
export const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

export function checkId(id: string, what: string): string {
  if (!ID.test(id)) throw new BffError("not_found", `No such ${what}.`);
  return id;
}
