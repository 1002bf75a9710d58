import type { SyncStatusReply } from "@/lib/model/mirror-replies";

/**
 * A minimal browser for tests of the BFF over HTTP: keeps the session cookie, sends the headers a same-origin
 * fetch from our pages sends, and records every response (headers and body) so a test can scan them all for secrets.
 */
export interface Recorded {
  url: string;
  status: number;
  headers: string;
  body: string;
}

export class TestBrowser {
  cookie: string | undefined;
  constructor(
    readonly origin: string,
    readonly record: Recorded[] = [],
  ) {}

  /** `headers` values of null remove a header the browser would send. */
  async fetch(
    path: string,
    init: {
      method?: string;
      json?: unknown;
      body?: string | ReadableStream<Uint8Array>;
      headers?: Record<string, string | null>;
      sameOrigin?: boolean;
      signal?: AbortSignal;
      raw?: boolean;
    } = {},
  ) {
    const method = init.method ?? "GET";
    const headers = new Map<string, string>([["Accept", "application/json"]]);
    if (this.cookie) headers.set("Cookie", this.cookie);
    if (method !== "GET" && init.sameOrigin !== false) {
      headers.set("Origin", this.origin);
      headers.set("X-Requested-With", "XMLHttpRequest");
      headers.set("Sec-Fetch-Site", "same-origin");
    }
    if (init.json !== undefined) headers.set("Content-Type", "application/json");
    for (const [name, value] of Object.entries(init.headers ?? {})) {
      if (value === null) headers.delete(name);
      else headers.set(name, value);
    }
    const res = await fetch(this.origin + path, {
      method,
      headers: Object.fromEntries(headers),
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      redirect: "manual",
      ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    const setCookie = res.headers.getSetCookie();
    for (const c of setCookie) {
      const [pair = ""] = c.split(";");
      const value = pair.slice(pair.indexOf("=") + 1);
      this.cookie = /max-age=0|expires=thu, 01 jan 1970/i.test(c) || value === "" ? undefined : pair;
    }
    if (init.raw) {
      this.record.push({
        url: path,
        status: res.status,
        headers: JSON.stringify([...res.headers.entries()]),
        body: "",
      });
      return { res, status: res.status, body: undefined as unknown, text: "", setCookie };
    }
    const text = await res.text();
    this.record.push({
      url: path,
      status: res.status,
      headers: JSON.stringify([...res.headers.entries()]),
      body: text,
    });
    let body: unknown = undefined;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { res, status: res.status, body: body as Record<string, unknown>, text, setCookie };
  }

  login(keyId: string, secret: string) {
    return this.fetch("/api/session", { method: "POST", json: { keyId, secret } });
  }
}

export const errorCodeOf = (body: unknown) => (body as { error?: { code?: string } } | undefined)?.error?.code;
export const errorMessageOf = (body: unknown) =>
  (body as { error?: { message?: string } } | undefined)?.error?.message ?? "";

/**
 * Signs in with a key pair and waits until the session's local copy has synced (GET /api/sync says ready, nothing
 * running): what an HTTP test over a mirror-on app does before it asks a mirror-backed question.
 */
export async function signInAndSync(b: TestBrowser, pair: { keyId: string; secret: string }): Promise<void> {
  const login = await b.login(pair.keyId, pair.secret);
  if (login.status !== 200) throw new Error(`sign-in answered ${String(login.status)}`);
  for (;;) {
    const status = (await b.fetch("/api/sync")).body as SyncStatusReply;
    if (status.state === "ready" && !status.running) return;
    if (status.state === "error") throw new Error(`the mirror did not sync: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
