import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { inject } from "vitest";

import { createConfig, type Profile, type SandboxConfig } from "../config";
import { openDatabase } from "../db/open";
import { demoCredentials, type DemoKeyLabel } from "../db/seed";
import { startSandboxServer } from "../server";
import { TEST_ANCHOR, TEST_SEED } from "./constants";

/** A clock the test moves by hand. Starts at the data's anchor so the rolling 30 days hold data. */
class FakeClock {
  constructor(public ms: number = TEST_ANCHOR.getTime()) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestSandbox {
  baseUrl: string;
  origin: string;
  db: ReturnType<typeof openDatabase>["db"];
  config: SandboxConfig;
  clock: FakeClock;
  close(): Promise<void>;
}

/** A real sandbox over real HTTP on loopback, on a fresh copy of the seeded template database. */
export async function startTestSandbox(
  options: { profile?: Profile } & Partial<Omit<SandboxConfig, "now" | "profile">> = {},
): Promise<TestSandbox> {
  const dir = mkdtempSync(join(tmpdir(), "ffd-sandbox-test-"));
  const path = join(dir, "sandbox.db");
  copyFileSync(inject("sandboxTemplateDb"), path);
  const { db } = openDatabase({ path });
  const clock = new FakeClock();
  const config = createConfig({ ...options, now: clock.now });
  const server = await startSandboxServer({ db, config, port: 0 });
  return {
    baseUrl: server.baseUrl,
    origin: server.origin,
    db,
    config,
    clock,
    close: async () => {
      await server.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const creds = (label: DemoKeyLabel) => demoCredentials(TEST_SEED, label);

export const basic = (keyId: string, secret: string) => `Basic ${Buffer.from(`${keyId}:${secret}`).toString("base64")}`;

/** A tiny client for tests: JSON in, status + headers + parsed JSON out. */
export function client(baseUrl: string) {
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(baseUrl + path, init);
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body: body as Record<string, unknown>, text };
  };
  const auth = (keyId: string, secret: string) =>
    call("/auth", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key_id: keyId, secret }),
    });
  const token = async (label: DemoKeyLabel = "demo-full") => {
    const { keyId, secret } = creds(label);
    const res = await auth(keyId, secret);
    if (res.status !== 200) throw new Error(`auth failed for ${label}: ${res.text}`);
    return res.body.access_token as string;
  };
  const get = (path: string, tokenOrHeader: string, headers: Record<string, string> = {}) =>
    call(path, {
      headers: {
        Authorization: tokenOrHeader.startsWith("Basic ") ? tokenOrHeader : `Bearer ${tokenOrHeader}`,
        ...headers,
      },
    });
  return { call, auth, token, get };
}

/** The error code of either error shape. */
export function errorCode(body: unknown): string | undefined {
  const b = body as { error?: unknown };
  if (typeof b.error === "string") return b.error;
  if (b.error && typeof b.error === "object") return (b.error as { code?: string }).code;
  return undefined;
}
export function errorMessage(body: unknown): string | undefined {
  const b = body as { error?: unknown; message?: string };
  if (typeof b.error === "string") return b.message;
  if (b.error && typeof b.error === "object") return (b.error as { message?: string }).message;
  return undefined;
}

/** A decimal (string or number) as an exact integer of minor units: ("12.5", 2) → 1250n. */
export function decimalUnits(value: number | string, digits: number): bigint {
  const [whole = "0", fraction = ""] = String(value).split(".");
  return BigInt(whole + fraction.padEnd(digits, "0").slice(0, digits));
}

interface PageEnvelope<T> {
  data: { page: number; limit: number; total: number; pages: number; items: T[] };
}

/** Walks every page of a list endpoint; fetchPage(n) asks for page n. Throws on a non-200 answer. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the item type it reads; tests check items themselves
export async function walkPages<T>(
  fetchPage: (page: number) => Promise<{ status: number; body: unknown; text: string }>,
): Promise<{ items: T[]; total: number; pages: number }> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const res = await fetchPage(page);
    if (res.status !== 200) throw new Error(`page ${String(page)}: HTTP ${String(res.status)} ${res.text}`);
    const { data } = res.body as PageEnvelope<T>;
    items.push(...data.items);
    if (page >= data.pages) return { items, total: data.total, pages: data.pages };
  }
}
