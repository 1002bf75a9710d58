import { afterEach, describe, expect, it } from "vitest";

import { BffError } from "../http/errors";
import { resetConfigForTests } from "../platform/config";
import { readSignInBody } from "./sign-in-body";

// The sign-in operation's input reader, without Next: a plain Request in, a key pair or a clear 4xx out.

const post = (body: string, headers: Record<string, string> = { "Content-Type": "application/json" }) =>
  new Request("http://localhost/api/session", { method: "POST", body, headers });

async function refusal(request: Request): Promise<BffError> {
  const error = await readSignInBody(request).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof BffError)) throw new Error("expected a BffError");
  return error;
}

describe("the sign-in body", () => {
  afterEach(() => {
    delete process.env.DEMO_KEY_ID;
    delete process.env.DEMO_KEY_SECRET;
    resetConfigForTests();
  });

  it("reads a key pair, trimming the key id", async () => {
    expect(await readSignInBody(post(JSON.stringify({ keyId: " ffk_1 ", secret: "s3cret" })))).toEqual({
      keyId: "ffk_1",
      secret: "s3cret",
    });
  });

  it("answers each mistake with a sentence, never quoting the secret", async () => {
    const cases: [Request, number, string][] = [
      [
        post("{}", { "Content-Type": "text/plain" }),
        400,
        "Send the key pair as JSON (Content-Type: application/json).",
      ],
      [post("{"), 400, "The request body is not valid JSON."],
      [post(JSON.stringify({ secret: "hidden-value" })), 400, "keyId is required."],
      [post(JSON.stringify({ keyId: "k", secret: "hidden-value", x: 1 })), 400, "Unknown field: x."],
      [post(JSON.stringify({ demo: true, keyId: "k" })), 400, "Send either {demo: true} or {keyId, secret}, not both."],
      [post(JSON.stringify({ keyId: "k", secret: "x".repeat(5000) })), 413, "The request body is too large."],
    ];
    for (const [request, status, message] of cases) {
      const error = await refusal(request);
      expect([error.status, error.message]).toEqual([status, message]);
      expect(error.message).not.toContain("hidden-value");
    }
  });

  it("offers the demo key only where the server holds one", async () => {
    process.env.FLEET_API_BASE_URL = "http://127.0.0.1:9/api/v1";
    process.env.SANDBOX = "1";
    resetConfigForTests();
    expect((await refusal(post(JSON.stringify({ demo: true })))).message).toBe(
      "No demo key is offered here: sign in with your own key pair.",
    );
  });
});
