/** The built dashboard (`next start`) for the bench, on a free loopback port, signed in like the login page does. */
import { CSRF_HEADER_NAME, CSRF_HEADER_VALUE } from "@/lib/bff/http/csrf";
import { type AppProcess, ensureBuilt, startApp } from "@/test/app-process";

import { register } from "./processes";
import type { DemoKeyPair } from "./sandbox";

/** A fixed bench-only session password (iron-session needs ≥ 32 characters). */
const SESSION_SECRET = "bench-only-session-secret-0123456789abcdef";

export interface App extends AppProcess {
  stop(): Promise<void>;
}

/** Builds when `.next` is missing or stale (the same lock as the tests), then starts the app against `baseUrl`. */
export async function startBenchApp(baseUrl: string, env: Record<string, string> = {}): Promise<App> {
  await ensureBuilt();
  const app = await startApp({ FLEET_API_BASE_URL: baseUrl, SESSION_SECRET, LOG_LEVEL: "warn", ...env });
  const stop = register("the app", () => app.stop());
  return { ...app, stop };
}

export interface Session {
  /** `Cookie` header value. */
  cookie: string;
  /** The raw `Set-Cookie` header of the sign-in. */
  setCookie: string;
}

/** `POST /api/session` with the headers our login page sends (CSRF: X-Requested-With and a same-origin Origin). */
export async function signIn(
  origin: string,
  key: DemoKeyPair,
  extraHeaders: Record<string, string> = {},
): Promise<Session> {
  const res = await fetch(`${origin}/api/session`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: origin,
      [CSRF_HEADER_NAME]: CSRF_HEADER_VALUE,
      "Sec-Fetch-Site": "same-origin",
      ...extraHeaders,
    },
    body: JSON.stringify({ keyId: key.keyId, secret: key.secret }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /api/session answered ${String(res.status)}: ${text.slice(0, 300)}`);
  const setCookie = res.headers.getSetCookie().find((c) => c.includes("ffd_session=")) ?? "";
  const cookie = setCookie.split(";")[0] ?? "";
  if (cookie === "") throw new Error("POST /api/session set no session cookie");
  return { cookie, setCookie };
}
