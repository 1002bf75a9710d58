import { request } from "node:http";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PROFILES } from "./config";
import { insertKey, newKeyPair } from "./db/keys";
import { schemasFor } from "./routes/schemas";
import { basic, client, creds, errorCode, errorMessage, startTestSandbox, type TestSandbox } from "./test/harness";

/** POSTs JSON with Transfer-Encoding: chunked (no Content-Length); with `end: false` the request never ends. */
function postChunked(
  url: string,
  chunks: readonly string[],
  options: { end: boolean },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { "Content-Type": "application/json" }, signal: AbortSignal.timeout(5_000) },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    if (options.end) req.end();
  });
}

describe.each(PROFILES)("POST /auth and credentials (%s profile)", (profile) => {
  let sb: TestSandbox;
  let api: ReturnType<typeof client>;
  const schemas = schemasFor(profile);
  const failCode = profile === "primary" ? "unauthenticated" : "invalid_credentials";

  beforeAll(async () => {
    sb = await startTestSandbox({ profile });
    api = client(sb.baseUrl);
  });
  afterAll(() => sb.close());

  it("exchanges a key pair for a bearer token of the documented shape", async () => {
    const { keyId, secret } = creds("demo-full");
    const res = await api.auth(keyId, secret);
    expect(res.status).toBe(200);
    const body = schemas.AuthResponse.parse(res.body);
    expect(body.expires_in).toBe(3600);
    expect(body.token_type).toBe("Bearer");
    if (profile === "primary") expect(res.body).toMatchObject({ ok: true });
    else {
      expect(res.body).not.toHaveProperty("ok");
      expect(res.body.scopes).toEqual(["account", "transactions", "locations"]);
    }
  });

  it("returns the same token while it is valid, with the seconds it has left, and a new one after expiry", async () => {
    const { keyId, secret } = creds("demo-full");
    const first = await api.auth(keyId, secret);
    sb.clock.advance(600_000);
    const second = await api.auth(keyId, secret);
    expect(second.body.access_token).toBe(first.body.access_token);
    expect(second.body.expires_in).toBe((first.body.expires_in as number) - 600);
    const ok = await api.get("/account-details", first.body.access_token as string);
    expect(ok.status).toBe(200);

    sb.clock.advance(3600_000);
    const expired = await api.get("/account-details", first.body.access_token as string);
    expect(expired.status).toBe(401);
    expect(errorCode(expired.body)).toBe("unauthenticated");
    const third = await api.auth(keyId, secret);
    expect(third.body.access_token).not.toBe(first.body.access_token);
    expect(third.body.expires_in).toBe(3600);
  });

  it.each([
    ["an unknown key", () => ({ keyId: "ffk_000000000000000000000000", secret: creds("demo-full").secret })],
    ["a wrong secret", () => ({ keyId: creds("demo-full").keyId, secret: "ffs_wrong" })],
    ["a revoked key", () => creds("demo-revoked")],
    ["another key's secret", () => ({ keyId: creds("demo-full").keyId, secret: creds("other-full").secret })],
  ])("rejects %s with 401 %s", async (_what, pair) => {
    const { keyId, secret } = pair();
    const res = await api.auth(keyId, secret);
    expect(res.status).toBe(401);
    expect(errorCode(res.body)).toBe(failCode);
    schemas.ErrorBody.parse(res.body);
    expect(res.text).not.toContain(secret);
  });

  it.each([
    ["missing key_id", JSON.stringify({ secret: "x" }), "key_id"],
    ["missing secret", JSON.stringify({ key_id: "ffk_abc" }), "secret"],
    ["key_id of the wrong type", JSON.stringify({ key_id: 42, secret: "x" }), "key_id"],
    ["key_id without the service prefix", JSON.stringify({ key_id: "abc", secret: "x" }), "key_id"],
    ["an empty secret", JSON.stringify({ key_id: "ffk_abc", secret: "" }), "secret"],
    ["an unknown field", JSON.stringify({ key_id: "ffk_abc", secret: "x", extra: 1 }), null],
    ["a JSON array", JSON.stringify([1, 2]), "JSON object"],
    ["non-JSON text", "key_id=ffk_abc&secret=x", "not valid JSON"],
    ["a huge body", JSON.stringify({ key_id: "ffk_abc", secret: "x".repeat(20_000) }), "larger than"],
  ])("answers 400 bad_request for %s, naming the problem", async (_what, body, named) => {
    const res = await api.call("/auth", { method: "POST", headers: { "Content-Type": "application/json" }, body });
    if (named === null) {
      // Unknown extra fields are tolerated: the credentials decide (here: unknown key → 401).
      expect(res.status).toBe(401);
      return;
    }
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("bad_request");
    expect(errorMessage(res.body)).toContain(named);
  });

  it.each([
    ["a missing key_id", { secret: "x" }, "key_id is required."],
    ["a missing secret", { key_id: "ffk_x" }, "secret is required."],
    ["a numeric secret", { key_id: "ffk_x", secret: 5 }, "secret must be a string."],
    ["a null secret", { key_id: "ffk_x", secret: null }, "secret must be a string."],
    ["a numeric key_id", { key_id: 42, secret: "x" }, "key_id must be a string."],
    ["an object key_id", { key_id: { id: "ffk_x" }, secret: "x" }, "key_id must be a string."],
  ])("tells %s apart from a wrong type: %j → %s", async (_what, body, message) => {
    const res = await api.call("/auth", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("bad_request");
    expect(errorMessage(res.body)).toBe(message);
  });

  it("reads a chunked body (no Content-Length) only up to 8 KiB: an over-long one is refused without waiting for its end", async () => {
    // The request is never ended: a server that buffered the whole body first would never answer.
    const res = await postChunked(
      `${sb.baseUrl}/auth`,
      ['{"key_id": "ffk_x", "secret": "', ...("x".repeat(9 * 1024).match(/.{1,1024}/g) ?? [])],
      { end: false },
    );
    expect(res.status).toBe(400);
    expect(errorCode(JSON.parse(res.body))).toBe("bad_request");
    expect(errorMessage(JSON.parse(res.body))).toBe("The request body is larger than 8192 bytes.");
  });

  it("accepts a small chunked body (no Content-Length)", async () => {
    const { keyId, secret } = creds("demo-full");
    const json = JSON.stringify({ key_id: keyId, secret });
    const res = await postChunked(`${sb.baseUrl}/auth`, [json.slice(0, 10), json.slice(10)], { end: true });
    expect(res.status).toBe(200);
    schemas.AuthResponse.parse(JSON.parse(res.body));
  });

  it("answers 400 when the body is not sent as JSON", async () => {
    const res = await api.call("/auth", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(res.status).toBe(400);
    expect(errorMessage(res.body)).toMatch(/application\/json/);
  });

  it("accepts HTTP Basic on every GET and rejects a wrong Basic secret", async () => {
    const { keyId, secret } = creds("demo-full");
    const ok = await api.get("/account-details", basic(keyId, secret));
    expect(ok.status).toBe(200);
    const bad = await api.get("/account-details", basic(keyId, "ffs_nope"));
    expect(bad.status).toBe(401);
    const revoked = await api.get("/account-details", basic(creds("demo-revoked").keyId, creds("demo-revoked").secret));
    expect(revoked.status).toBe(401);
    const garbage = await api.get("/account-details", "Basic !!!not-base64");
    expect(garbage.status).toBe(401);
  });

  it.each([
    ["no Authorization header", {}],
    ["an unknown bearer token", { Authorization: "Bearer fft_unknown" }],
    ["an unsupported scheme", { Authorization: "Digest abc" }],
    ["an empty bearer", { Authorization: "Bearer " }],
  ])("answers 401 unauthenticated for %s", async (_what, headers) => {
    const res = await api.call("/transactions", { headers });
    expect(res.status).toBe(401);
    expect(errorCode(res.body)).toBe("unauthenticated");
  });

  it("a token issued before a key is revoked stops working", async () => {
    const pair = newKeyPair();
    const customerPk = (sb.db.prepare("SELECT pk FROM customers WHERE code = 'PFL'").get() as { pk: number }).pk;
    insertKey(sb.db, { ...pair, customerPk, scopes: ["account"], createdAt: "2026-01-01T00:00:00Z" });
    const token = (await api.auth(pair.keyId, pair.secret)).body.access_token as string;
    expect((await api.get("/account-details", token)).status).toBe(200);
    sb.db.prepare("UPDATE api_keys SET revoked_at = '2026-06-15T00:00:00Z' WHERE key_id = ?").run(pair.keyId);
    expect((await api.get("/account-details", token)).status).toBe(401);
  });

  it("denies an endpoint outside the key's scopes with 403 scope_denied naming the scope", async () => {
    const token = await api.token("demo-no-transactions");
    const denied = await api.get("/transactions", token);
    expect(denied.status).toBe(403);
    expect(errorCode(denied.body)).toBe("scope_denied");
    expect(errorMessage(denied.body)).toBe(
      profile === "primary"
        ? "This API key's read scope does not cover transactions (GET /transactions)."
        : "This API key lacks the transactions scope needed for GET /transactions.",
    );
    const detail = await api.get("/transactions/anything", token);
    expect(detail.status).toBe(403);
    expect(errorMessage(detail.body)).toContain(
      profile === "primary" ? "read scope does not cover transactions" : "lacks the transactions scope",
    );
    expect((await api.get("/account-details", token)).status).toBe(200);
    expect((await api.get("/locations?limit=1", token)).status).toBe(200);
  });

  it("answers Basic credentials over the key's budget with 429 before checking the secret, and such a call is no failed check", async () => {
    const small = await startTestSandbox({ profile, budget: 2, failedAuthBudget: 1 });
    try {
      const smallApi = client(small.baseUrl);
      const { keyId, secret } = creds("demo-full");
      small.clock.ms = Math.ceil(small.clock.ms / 60_000) * 60_000 + 10_000; // 10 s into a window
      expect((await smallApi.get("/account-details", basic(keyId, secret))).status).toBe(200);
      expect((await smallApi.get("/account-details", basic(keyId, secret))).status).toBe(200);
      for (const pair of [basic(keyId, "ffs_wrong"), basic(keyId, secret)]) {
        const res = await smallApi.get("/account-details", pair);
        expect(res.status).toBe(429);
        expect(errorCode(res.body)).toBe("rate_limited");
        expect(res.headers.get("retry-after")).toBe("50");
      }
      // Had the wrong secret been checked, it would have spent the address's one failed check: this would be 429.
      expect((await smallApi.auth(keyId, "ffs_another-guess")).status).toBe(401);
    } finally {
      await small.close();
    }
  });

  if (profile === "alternative") {
    it("gives an address the key's allow-list excludes the same answer whether the secret is right or wrong", async () => {
      const { keyId, secret } = creds("demo-allowlist");
      const strip = (res: { status: number; text: string }) => ({ status: res.status, text: res.text });
      const [right, wrong] = [await api.auth(keyId, secret), await api.auth(keyId, "ffs_wrong-guess")];
      expect(strip(wrong)).toEqual(strip(right));
      expect(right.status).toBe(401);
      expect(errorMessage(right.body)).toMatch(/allow-list/);
      expect(strip(await api.get("/account-details", basic(keyId, "ffs_wrong-guess")))).toEqual(
        strip(await api.get("/account-details", basic(keyId, secret))),
      );
    });

    it("applies the allow-list rule: a key whose list excludes loopback gets 401, a key listing it works", async () => {
      const { keyId, secret } = creds("demo-allowlist");
      expect((await api.auth(keyId, secret)).status).toBe(401);
      expect((await api.get("/account-details", basic(keyId, secret))).status).toBe(401);
      const pair = newKeyPair();
      insertKey(sb.db, {
        ...pair,
        customerPk: 1,
        scopes: ["account"],
        allowIps: ["127.0.0.1"],
        createdAt: "2026-01-01T00:00:00Z",
      });
      const token = (await api.auth(pair.keyId, pair.secret)).body.access_token as string;
      expect((await api.get("/account-details", token)).status).toBe(200);
    });
  } else {
    it("has no allow-list rule in the primary description: the allow-listed key works from loopback", async () => {
      const { keyId, secret } = creds("demo-allowlist");
      expect((await api.auth(keyId, secret)).status).toBe(200);
    });
  }
});
