import "server-only";

import { z } from "zod";

import { US_STATE_CODES } from "@/lib/model";

import { ID, search, whole } from "../http/query";

/** Query schemas of the stations routes (the catalog and the price lookups). */

export const LocationListQuery = z
  .object({
    page: whole("page", 1, 1_000_000),
    limit: whole("limit", 1, 500),
    all: z.enum(["1", "true"], { error: "all must be 1" }).optional(),
    /** The whole catalog gzip-packed (lib/bff/http/compress): only with all=1. */
    pack: z.enum(["gzip"], { error: "pack must be gzip" }).optional(),
    brand: z
      .string()
      .regex(/^[a-z0-9_-]{1,40}$/i, { error: "brand must be a chain code such as pilot" })
      .transform((v) => v.toLowerCase())
      .optional(),
    state: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(z.enum(US_STATE_CODES, { error: "state must be a USPS two-letter code, e.g. TX" }))
      .optional(),
    search,
  })
  .strict()
  .refine((q) => q.pack === undefined || q.all !== undefined, {
    error: "pack=gzip is only for the whole catalog (all=1)",
    path: ["pack"],
  });

/** Station ids per `GET /api/locations/prices` request: each unknown one costs an upstream call. */
const MAX_PRICE_IDS = 25;
/** How much of an unreadable id a 400 quotes back. */
const QUOTED_ID_LENGTH = 40;

export const StationPricesQuery = z
  .object({
    ids: z
      .string({ error: `ids is required: 1 to ${String(MAX_PRICE_IDS)} station ids separated by commas` })
      .transform((value, ctx) => {
        const ids = [
          ...new Set(
            value
              .split(",")
              .map((id) => id.trim())
              .filter((id) => id !== ""),
          ),
        ];
        if (ids.length === 0) {
          ctx.addIssue({
            code: "custom",
            message: `ids must name 1 to ${String(MAX_PRICE_IDS)} station ids separated by commas`,
          });
          return z.NEVER;
        }
        if (ids.length > MAX_PRICE_IDS) {
          ctx.addIssue({
            code: "custom",
            message: `ids names ${String(ids.length)} stations; ask for at most ${String(MAX_PRICE_IDS)} per request and the rest in another`,
          });
          return z.NEVER;
        }
        const bad = ids.find((id) => !ID.test(id));
        if (bad !== undefined) {
          const quoted = bad.length > QUOTED_ID_LENGTH ? `${bad.slice(0, QUOTED_ID_LENGTH)}…` : bad;
          ctx.addIssue({
            code: "custom",
            message: `“${quoted}” is not a station id (letters, digits, - and _, at most 100 characters; ids are separated by commas)`,
          });
          return z.NEVER;
        }
        return ids;
      }),
  })
  .strict();
