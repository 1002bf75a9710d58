import { describe, expect, it } from "vitest";

import { DEFAULT_SESSION_DB, DEFAULT_UPSTREAM, EnvSchema } from "./config-schema";

const messages = (env: Record<string, string>): string[] => {
  const result = EnvSchema.safeParse(env);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("EnvSchema", () => {
  it("gives every variable its documented default when the environment is empty or blank", () => {
    const parsed = EnvSchema.parse({ FLEET_API_BASE_URL: " ", SESSION_DB: "" });
    expect(parsed).toMatchObject({
      FLEET_API_BASE_URL: DEFAULT_UPSTREAM,
      FLEET_API_ALLOW_INSECURE_HTTP: false,
      FLEET_API_BUDGET: 60,
      SESSION_DB: DEFAULT_SESSION_DB,
      EXPORT_IDLE_SECONDS: 120,
      PUBLIC_ORIGINS: [],
      LOG_LEVEL: "info",
    });
    expect(parsed.REDIS_URL).toBeUndefined();
  });

  it("reads flags as yes/no words and whole numbers within their bounds", () => {
    expect(EnvSchema.parse({ TRUST_PROXY: "yes", SESSION_INSECURE_COOKIE: "0" })).toMatchObject({
      TRUST_PROXY: true,
      SESSION_INSECURE_COOKIE: false,
    });
    expect(EnvSchema.parse({ FLEET_API_BUDGET: " 120 " }).FLEET_API_BUDGET).toBe(120);
  });

  it("reads how long a person's request may wait out a 429: 30 s unless set, from 1 to 300 s", () => {
    expect(EnvSchema.parse({}).FLEET_API_INTERACTIVE_WAIT_SECONDS).toBe(30);
    expect(EnvSchema.parse({ FLEET_API_INTERACTIVE_WAIT_SECONDS: "5" }).FLEET_API_INTERACTIVE_WAIT_SECONDS).toBe(5);
    expect(messages({ FLEET_API_INTERACTIVE_WAIT_SECONDS: "0" })).toEqual([
      'FLEET_API_INTERACTIVE_WAIT_SECONDS: FLEET_API_INTERACTIVE_WAIT_SECONDS must be a whole number from 1 to 300 (got "0")',
    ]);
  });

  it("names the variable and says what to give when a value is wrong", () => {
    expect(messages({ TRUST_PROXY: "maybe", FLEET_API_BUDGET: "1.5", SESSION_DB: ".data/" })).toEqual([
      'FLEET_API_BUDGET: FLEET_API_BUDGET must be a whole number from 1 to 100000 (got "1.5")',
      "SESSION_DB: SESSION_DB must be a file path, e.g. .data/sessions.db (not a folder)",
      "TRUST_PROXY: TRUST_PROXY must be true or false",
    ]);
    expect(messages({ TILE_ATTRIBUTION: "<b>x</b>" })[0]).toMatch(/^TILE_ATTRIBUTION: .*plain text/);
  });
});
