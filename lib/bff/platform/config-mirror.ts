import "server-only";

import { resolve } from "node:path";

import { z } from "zod";

import { DEFAULT_MIRROR_PATH } from "@/lib/mirror";

import { flag, int } from "./config-schema";

/**
 * The mirror's configuration (issue 15): whether it runs, where it is stored, how long an unused customer's copy is
 * kept. Parsed by the BFF's config (config.ts) and by `npm run mirror` (scripts/mirror.ts), which needs no session
 * secret or upstream to inspect or purge the store.
 */
export interface MirrorConfig {
  enabled: boolean;
  /** Absolute path of the SQLite file (used when databaseUrl is unset). */
  path: string;
  /** PostgreSQL URL: the store several app instances share. */
  databaseUrl: string | undefined;
  /** A customer's mirror not used for this long is deleted. */
  retentionMs: number;
}

const DAY_MS = 86_400_000;

const MirrorEnvSchema = z.object({
  MIRROR_ENABLED: flag("MIRROR_ENABLED", true),
  MIRROR_PATH: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? DEFAULT_MIRROR_PATH : v.trim()))
    .pipe(
      z.string().refine((v) => !/[\\/]$/.test(v) && v !== "." && v !== "..", {
        error: "MIRROR_PATH must be a file path, e.g. .data/mirror.db (not a folder)",
      }),
    ),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()))
    .pipe(
      z
        .url({
          protocol: /^postgres(ql)?$/,
          error:
            "DATABASE_URL must be a postgres:// or postgresql:// URL, e.g. postgres://ffd:PASSWORD@db.internal/ffd",
        })
        .optional(),
    ),
  MIRROR_RETENTION_DAYS: int("MIRROR_RETENTION_DAYS", 30, 1, 3650),
});

/** The mirror's variables, or every problem with them (messages name the variable and say what to give). */
export function parseMirrorConfig(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): { config: MirrorConfig; problems: [] } | { config: undefined; problems: string[] } {
  const parsed = MirrorEnvSchema.safeParse(env);
  if (!parsed.success)
    return {
      config: undefined,
      problems: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)),
    };
  const e = parsed.data;
  return {
    config: {
      enabled: e.MIRROR_ENABLED,
      path: resolve(cwd, e.MIRROR_PATH),
      databaseUrl: e.DATABASE_URL,
      retentionMs: e.MIRROR_RETENTION_DAYS * DAY_MS,
    },
    problems: [],
  };
}
