import "server-only";

import { z } from "zod";

import type { Credentials } from "@/lib/fleet-api";
import { readTextLimited } from "@/lib/read-limited";

import { BffError } from "../http/errors";
import { getConfig } from "../platform/config";

/** The sign-in body: `{keyId, secret}`, or `{demo: true}` for the sandbox's demo key. Read and checked here. */

const MAX_BODY_BYTES = 4096;

const KeyPairBody = z
  .object({
    keyId: z
      .string({ error: (i) => (i.input === undefined ? "keyId is required" : "keyId must be a string") })
      .trim()
      .min(1, { error: "keyId is required" })
      .max(200, { error: "keyId is too long" }),
    secret: z
      .string({ error: (i) => (i.input === undefined ? "secret is required" : "secret must be a string") })
      .min(1, { error: "secret is required" })
      .max(500, { error: "secret is too long" }),
  })
  .strict();
/** "Sign in with the demo key": the pair is the server's (DEMO_KEY_ID/SECRET, local sandbox only), never the browser's. */
const DemoBody = z.object({ demo: z.literal(true, { error: "demo must be true" }) }).strict();

/** The key pair a sign-in body names: a 400 saying what is wrong with it otherwise (never quoting the secret). */
function credentialsFrom(body: unknown): Credentials {
  if (typeof body === "object" && body !== null && Object.hasOwn(body, "demo")) {
    const demo = DemoBody.safeParse(body);
    if (!demo.success)
      throw new BffError(
        "bad_request",
        `${demo.error.issues[0]?.code === "unrecognized_keys" ? "Send either {demo: true} or {keyId, secret}, not both" : (demo.error.issues[0]?.message ?? "Invalid request")}.`,
      );
    const pair = getConfig().demoKey;
    if (pair === undefined)
      throw new BffError("bad_request", "No demo key is offered here: sign in with your own key pair.");
    return { keyId: pair.keyId, secret: pair.secret };
  }
  const parsed = KeyPairBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BffError(
      "bad_request",
      issue?.code === "unrecognized_keys"
        ? `Unknown field: ${issue.keys.join(", ")}.`
        : `${issue?.message ?? "Invalid request"}.`,
    );
  }
  return { keyId: parsed.data.keyId, secret: parsed.data.secret };
}

/** The request's JSON body, bounded in size (a 413 beyond 4 kB) and typed as JSON (else a 400 saying how to send it). */
async function readJsonBody(request: Request): Promise<unknown> {
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? ""))
    throw new BffError("bad_request", "Send the key pair as JSON (Content-Type: application/json).");
  if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES)
    throw new BffError("payload_too_large", "The request body is too large.");
  const text = await readTextLimited(
    request.body,
    MAX_BODY_BYTES,
    () => new BffError("payload_too_large", "The request body is too large."),
  );
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BffError("bad_request", "The request body is not valid JSON.");
  }
}

/** The sign-in operation's input reader: the body, then the key pair it names. */
export async function readSignInBody(request: Request): Promise<Credentials> {
  return credentialsFrom(await readJsonBody(request));
}
