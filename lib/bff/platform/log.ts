import "server-only";

import pino, { type Logger } from "pino";

import { getConfig } from "./config";

const holder = globalThis as typeof globalThis & { __ffdLogger?: Logger };

/**
 * Structured logs (one JSON line each). Never given a secret, a token or a full key id: request lines carry a
 * short key fingerprint. The redact list is a second line of defence.
 */
export function logger(): Logger {
  holder.__ffdLogger ??= pino({
    level: getConfig().logLevel,
    base: { service: "fleet-fuel-dashboard" },
    redact: {
      paths: [
        "secret",
        "*.secret",
        "keyId",
        "*.keyId",
        "authorization",
        "*.authorization",
        "token",
        "*.token",
        "cookie",
        "*.cookie",
      ],
      censor: "[redacted]",
    },
  });
  return holder.__ffdLogger;
}
