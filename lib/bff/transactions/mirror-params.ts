import "server-only";

import { z } from "zod";

import { LIST_SORT_COLUMNS, US_STATE_CODES } from "@/lib/model";

import { quoted } from "../platform/quoted";

/**
 * The list's and the export's parameters only the mirror answers (lib/model/mirror-replies MIRROR_ONLY_FILTERS):
 * driver, card, truck, station, state, product, amount and gallon ranges, and the sort. Part of the query schemas
 * of lib/bff/http/query; messages name the parameter in words and quote what was sent.
 */

/** An id the mirror compares exactly (driver, truck, station): the upstream's ids are short tokens. */
const idOf = (words: string, example: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, {
      error: (issue) => `${words} must be an id such as ${example}; ${quoted(issue.input)} is not`,
    })
    .optional();

/** A non-negative decimal with at most `places` decimals, as sent ("12.5"), kept as the exact string. */
const decimalOf = (words: string, places: number) =>
  z
    .string()
    .regex(new RegExp(`^\\d{1,9}(\\.\\d{1,${String(places)}})?$`), {
      error: (issue) =>
        `${words} must be a number such as 12.5 with at most ${String(places)} decimals; ${quoted(issue.input)} is not`,
    })
    .optional();

/** The list's filters only the mirror answers (lib/model/mirror-replies MIRROR_ONLY_FILTERS), and the sort. */
export const mirrorShape = {
  driver: idOf("The driver (driver)", "D-1042"),
  card: z
    .string()
    .regex(/^\d{4}$/, {
      error: (issue) => `The card (card) must be its last four digits, e.g. 4821; ${quoted(issue.input)} is not`,
    })
    .optional(),
  truck: idOf("The truck (truck)", "T-17"),
  station: idOf("The station (station)", "st_000123"),
  state: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(
      z.enum(US_STATE_CODES, {
        error: (issue) => `The state (state) must be a USPS two-letter code, e.g. TX; ${quoted(issue.input)} is not`,
      }),
    )
    .optional(),
  product: z
    .string()
    // The characters real product names use ("Unleaded 87", "ULSD #2", "Misc.", "B20/Bio", "E15+"): a report's link
    // carries the name as the rows have it. components/transactions/mirror-filter-state.ts keeps the same rule.
    .regex(/^[A-Za-z0-9][A-Za-z0-9 #._/+-]{0,39}$/, {
      error: (issue) =>
        `The product (product) must be a product name such as diesel or ULSD #2: up to 40 letters, digits, spaces or # . - _ / +; ${quoted(issue.input)} is not`,
    })
    .transform((v) => v.toLowerCase())
    .optional(),
  amountMin: decimalOf("The lowest amount (amountMin)", 2),
  amountMax: decimalOf("The highest amount (amountMax)", 2),
  gallonsMin: decimalOf("The fewest gallons (gallonsMin)", 3),
  gallonsMax: decimalOf("The most gallons (gallonsMax)", 3),
  dates: z
    .enum(["local"], {
      error: (issue) =>
        `The date basis (dates) can only be local (each purchase's own local date); ${quoted(issue.input)} is not`,
    })
    .optional(),
  sort: z
    .enum(LIST_SORT_COLUMNS, {
      error: (issue) =>
        `The sort column (sort) must be one of ${LIST_SORT_COLUMNS.join(", ")}; ${quoted(issue.input)} is not`,
    })
    .optional(),
  dir: z
    .enum(["asc", "desc"], {
      error: (issue) => `The sort direction (dir) must be asc or desc; ${quoted(issue.input)} is not`,
    })
    .optional(),
};

/** The mirror-only filters and sort as the routes read them (absent ones undefined). */
export type MirrorFilterQuery = { [K in keyof typeof mirrorShape]?: z.infer<(typeof mirrorShape)[K]> };

export const minNotAboveMax = (q: MirrorFilterQuery, ctx: z.RefinementCtx) => {
  const pairs = [
    ["amountMin", "amountMax", "The lowest amount", "the highest"],
    ["gallonsMin", "gallonsMax", "The fewest gallons", "the most"],
  ] as const;
  for (const [low, high, lowWords, highWords] of pairs) {
    const min = q[low];
    const max = q[high];
    if (min !== undefined && max !== undefined && Number(min) > Number(max))
      ctx.addIssue({
        code: "custom",
        path: [low],
        message: `${lowWords} (${low}, ${min}) is above ${highWords} (${high}, ${max}); swap them`,
      });
  }
};
