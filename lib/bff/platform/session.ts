import "server-only";

import { randomBytes } from "node:crypto";

import { getIronSession, type IronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";

import type { Credentials } from "@/lib/fleet-api";

import { now } from "./clock";
import { getConfig } from "./config";
import { revocations } from "./revocations";
import { unsealCached } from "./session-seal";

/** What the sealed cookie holds. The key pair lives only here (encrypted and authenticated), never in a store. */
interface SessionData {
  sid?: string;
  keyId?: string;
  secret?: string;
  customerName?: string | null;
  customerCode?: string | null;
  scopes?: string[] | null;
  createdAt?: number;
  lastSeenAt?: number;
  /**
   * The absolute expiry fixed at sign-in: raising SESSION_ABSOLUTE_HOURS later cannot lengthen a session, so a
   * revocation kept until this moment covers the cookie for as long as it could be accepted.
   */
  expiresAt?: number;
}

export interface ActiveSession {
  sid: string;
  credentials: Credentials;
  customerName: string | null;
  customerCode: string | null;
  scopes: string[] | null;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

/** Rolling idle timeout is refreshed at most this often, so not every request rewrites the cookie. */
const TOUCH_EVERY_MS = 60_000;

function sessionOptions(): SessionOptions {
  const { session } = getConfig();
  return {
    cookieName: session.cookieName,
    password: session.passwords,
    // The seal itself expires with the absolute timeout; iron-session sets Max-Age a minute shorter.
    ttl: Math.ceil(session.absoluteMs / 1000),
    cookieOptions: { httpOnly: true, secure: session.secureCookie, sameSite: "lax", path: "/" },
  };
}

async function ironSession(): Promise<IronSession<SessionData>> {
  return getIronSession<SessionData>(await cookies(), sessionOptions());
}

async function readCookie(): Promise<Readonly<SessionData>> {
  const options = sessionOptions();
  const seal = (await cookies()).get(options.cookieName)?.value;
  if (seal === undefined || seal === "") return {};
  return unsealCached<SessionData>(seal, { password: options.password, ttl: options.ttl });
}

export type SessionProblem = "missing" | "expired_idle" | "expired_absolute" | "revoked";

/**
 * The caller's session, checked here in every data route (the page proxy is a convenience, not the boundary):
 * a valid seal, not revoked, within the idle and absolute timeouts. Rolls the idle timeout forward.
 * `readOnly` (server pages, which may not set cookies): the same checks, without rolling or clearing the cookie —
 * the page's own data requests do that.
 */
export async function readSession(
  options: { readOnly?: boolean } = {},
): Promise<{ session: ActiveSession } | { problem: SessionProblem }> {
  const d = await readCookie();
  // A server page can read cookies but not set them: it gets the same checks without the cookie being touched
  // (the page's own data requests, through the route handlers, roll the idle timeout or clear the cookie).
  const canWrite = options.readOnly !== true;
  const end = async () => {
    if (canWrite) (await ironSession()).destroy();
  };
  if (!d.sid || !d.keyId || !d.secret || d.createdAt === undefined || d.lastSeenAt === undefined)
    return { problem: "missing" };
  const { session: cfg } = getConfig();
  const t = now();
  if (await revocations().isRevoked(d.sid)) {
    await end();
    return { problem: "revoked" };
  }
  if (t >= absoluteExpiry(d, cfg.absoluteMs)) {
    await end();
    return { problem: "expired_absolute" };
  }
  if (t - d.lastSeenAt >= cfg.idleMs) {
    await end();
    return { problem: "expired_idle" };
  }
  let lastSeenAt = d.lastSeenAt;
  if (canWrite && t - d.lastSeenAt >= TOUCH_EVERY_MS) {
    const iron = await ironSession();
    iron.lastSeenAt = lastSeenAt = t;
    await iron.save();
  }
  return {
    session: {
      sid: d.sid,
      credentials: { keyId: d.keyId, secret: d.secret },
      customerName: d.customerName ?? null,
      customerCode: d.customerCode ?? null,
      scopes: d.scopes ?? null,
      createdAt: d.createdAt,
      lastSeenAt,
      expiresAt: Math.min(absoluteExpiry(d, cfg.absoluteMs), lastSeenAt + cfg.idleMs),
    },
  };
}

/** Upstream-provided text sealed in the cookie is capped, so the cookie stays well under 4 KB whatever it sends. */
const cap = (text: string | null, max: number) => (text === null ? null : text.slice(0, max));

export async function startSession(input: {
  credentials: Credentials;
  customerName: string | null;
  customerCode: string | null;
  scopes: string[] | null;
}): Promise<ActiveSession> {
  const iron = await ironSession();
  const t = now();
  // A login over an existing session ends that one: its copied cookie must not keep working.
  if (iron.sid !== undefined)
    await revocations().revoke(iron.sid, absoluteExpiry(iron, getConfig().session.absoluteMs, t));
  input = {
    ...input,
    customerName: cap(input.customerName, 120),
    customerCode: cap(input.customerCode, 40),
    scopes: input.scopes?.slice(0, 10).map((s) => s.slice(0, 40)) ?? null,
  };
  const sid = randomBytes(18).toString("base64url");
  iron.sid = sid;
  iron.keyId = input.credentials.keyId;
  iron.secret = input.credentials.secret;
  iron.customerName = input.customerName;
  iron.customerCode = input.customerCode;
  iron.scopes = input.scopes;
  iron.createdAt = t;
  iron.lastSeenAt = t;
  const { session: cfg } = getConfig();
  iron.expiresAt = t + cfg.absoluteMs;
  await iron.save();
  return {
    sid,
    credentials: input.credentials,
    customerName: input.customerName,
    customerCode: input.customerCode,
    scopes: input.scopes,
    createdAt: t,
    lastSeenAt: t,
    expiresAt: t + Math.min(cfg.idleMs, cfg.absoluteMs),
  };
}

/** Logout, server-side too: the session id is revoked until its absolute expiry, then the cookie is cleared. */
export async function endSession(sid: string | undefined): Promise<void> {
  const iron = await ironSession();
  const id = sid ?? iron.sid;
  if (id !== undefined) await revocations().revoke(id, absoluteExpiry(iron, getConfig().session.absoluteMs, now()));
  iron.destroy();
}

/**
 * When the session's absolute timeout ends: the time fixed at sign-in, never later than the configured length allows
 * (lowering SESSION_ABSOLUTE_HOURS shortens running sessions). Cookies sealed before `expiresAt` existed use the
 * configured length alone.
 */
function absoluteExpiry(
  d: Pick<SessionData, "createdAt" | "expiresAt">,
  absoluteMs: number,
  fallbackCreatedAt = now(),
): number {
  const byConfig = (d.createdAt ?? fallbackCreatedAt) + absoluteMs;
  return d.expiresAt === undefined ? byConfig : Math.min(d.expiresAt, byConfig);
}
